# sweep and report tools

# bench-drivers: every driver and mode on one file system, one table (doc/drivers.md)
dist_bin_SCRIPTS += scripts/bench-drivers
