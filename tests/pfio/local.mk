# tests for pfio: added by its issue
