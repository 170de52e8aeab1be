# mom kernel: added by its issue
