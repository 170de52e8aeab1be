# tests for gcrm: added by its issue
