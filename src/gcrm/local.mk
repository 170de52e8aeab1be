# gcrm kernel: added by its issue
