# tests for scripts: added by its issue
