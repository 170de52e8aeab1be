# pfio kernel: added by its issue
