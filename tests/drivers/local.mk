# tests for drivers: added by its issue
