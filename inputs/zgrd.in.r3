! gcrm_io parameters: level 3 (642 cells, about 894 km), all physics fields.
! planned process counts: 2 4 10
!
! Three snapshots (t = 0, 900, 1800 s: the level-3 model time step), one history
! file per field (ZGrd.CP.lyr.fcfg), the grid file and a restart file per snapshot.
! Usable process counts: 1, 2, 4, 5, 8, 10, 16, 20, ... (divisors of 10*4^k);
! gcrm_io lists them if the count cannot be used.
!
! One `key value` per line; `!` or `#` starts a comment.  Any key can be given
! on the command line too (--iotype blocking_independent); doc/gcrm.md lists them.

level_max            3

end_days             0            ! simulated length
end_hours            0
end_minutes          30
end_seconds          0

physics_mode         enabled

! nonblocking_collective, nonblocking_independent, blocking_collective or
! blocking_independent (the PnetCDF call pattern of each: doc/gcrm.md)
iotype               nonblocking_collective
io_desc_file         ZGrd.desc

! ZGrd.CP.lyr.fcfg         38 fields, one file each
! ZGrd.CP.lyr.fcfg.groups  the same fields in 12 files
! ZGrd.CP.lyr.fcfg.one     the same fields in 1 file
! ZGrd.LZ.fcfg.nophys      11 fields, one file each (with physics_mode disabled)
io_config_file       ZGrd.CP.lyr.fcfg

cdf_output_path      ./out        ! created if missing; GCRM_OUTPUT_PATH overrides it
cdf_output_frequency 900          ! seconds between snapshots
cdf_output_nsamples  8            ! records per history file
cdf_grid_option      sep_grid
cdf_sep_grid         grid

restart_interval     900          ! seconds between restart files (0: none)
restart_output       restart.nc
restart_overwrite    false

cf_metadata          true         ! CF-valid metadata (xarray reads the files); GCRM-IO's own inputs lack it
