# tests for mom: added by its issue
