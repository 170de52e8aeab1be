! mom_diag_driver: MOM5's ocean diagnostics written by FMS itself, for
! scripts/peer-fms to set beside mom_io on the same grid, layout and io_layout.
!
! It does what MOM5's ocean model does with FMS for its diagnostic file and
! nothing else: a 2-D domain over the global grid (mpp_define_domains, then
! mpp_define_io_domain with the io_layout, as MOM5's ocean_domains.F90), the
! B-grid axes (xt/yt/xu/yu_ocean on the domain, st_ocean with its edges), the
! fields MOM5 registers under the same names, long names, units, ranges and
! standard names (temp, salt, u, v, age_global, eta_t, surface_temp; the
! static geolon/geolat fields), one send_data per field and time step, then
! diag_manager_end.  The diag_table in the run folder picks what is written,
! how often and with which packing; the namelist mom_diag_driver_nml in
! input.nml gives the grid, the layouts and the number of steps.
!
! The axes are mom_io's (a 360-degree band from 280 W, pole to pole, depths
! 5 + 10 k (1 + k / nk) m); the field values are a smooth function of the
! global indices and the step, so that a combined set can be checked against
! the single file, not mom_io's data pattern.
!
! Builds against any FMS with the classic diag_manager interface: a release of
! github NOAA-GFDL/FMS (fms2_io underneath) or the FMS that MOM5 carries
! (mpp_io underneath).  -DFMS_SEND_COMPLETE calls diag_send_complete after
! each step (with diag_manager_set_time_end first), which releases from 2023
! on expect.
program mom_diag_driver
  use fms_mod, only: fms_init, fms_end
  use mpp_mod, only: mpp_pe, mpp_root_pe, mpp_npes, mpp_error, FATAL, NOTE
  use mpp_domains_mod, only: domain2d, mpp_define_domains, mpp_define_io_domain, &
       mpp_get_compute_domain, mpp_define_layout
  use diag_manager_mod, only: diag_manager_init, diag_manager_end, diag_axis_init, &
       register_diag_field, register_static_field, send_data
#ifdef FMS_SEND_COMPLETE
  use diag_manager_mod, only: diag_send_complete, diag_manager_set_time_end
#endif
  use time_manager_mod, only: time_type, set_calendar_type, NOLEAP, set_date, set_time, &
       operator(+)
  implicit none

  integer, parameter :: dp = selected_real_kind(12)
  real(dp), parameter :: missing = -1.0e20_dp

  ! the namelist (input.nml); layout 1,1 lets FMS choose, as MOM5
  integer :: ni = 40, nj = 30, nk = 5
  integer :: layout(2) = (/1, 1/), io_layout(2) = (/1, 1/)
  integer :: steps = 3, dt_seconds = 1800
  namelist /mom_diag_driver_nml/ ni, nj, nk, layout, io_layout, steps, dt_seconds

  type(domain2d) :: domain
  type(time_type) :: time, dt
  integer :: lay(2), isc, iec, jsc, jec, nx, ny
  integer :: ax_xt, ax_yt, ax_xu, ax_yu, ax_st, ax_st_edges
  integer :: id_temp, id_salt, id_u, id_v, id_age, id_eta, id_sst
  integer :: id_lon_t, id_lat_t, id_lon_c, id_lat_c
  integer :: step
  real(dp), allocatable :: xt(:), yt(:), xu(:), yu(:), st(:), st_edges(:)
  real(dp), allocatable :: f3(:,:,:), f2(:,:)
  logical :: used

  call fms_init()
  call read_settings()
  call set_calendar_type(NOLEAP)
  call diag_manager_init()

  ! MOM5's ocean_domains: layout 1,1 means "FMS chooses"; the io domain always
  if (layout(1) == 1 .and. layout(2) == 1) then
    call mpp_define_layout((/1, ni, 1, nj/), mpp_npes(), lay)
  else
    lay = layout
  end if
  call mpp_define_domains((/1, ni, 1, nj/), lay, domain, xhalo=1, yhalo=1, name='ocean')
  call mpp_define_io_domain(domain, io_layout)
  call mpp_get_compute_domain(domain, isc, iec, jsc, jec)
  nx = iec - isc + 1
  ny = jec - jsc + 1

  call make_axes()
  ax_xt = diag_axis_init('xt_ocean', xt, 'degrees_E', 'x', 'tcell longitude', &
       set_name='ocean', Domain2=domain, aux='geolon_t')
  ax_yt = diag_axis_init('yt_ocean', yt, 'degrees_N', 'y', 'tcell latitude', &
       set_name='ocean', Domain2=domain, aux='geolat_t')
  ax_xu = diag_axis_init('xu_ocean', xu, 'degrees_E', 'x', 'ucell longitude', &
       set_name='ocean', Domain2=domain, aux='geolon_c')
  ax_yu = diag_axis_init('yu_ocean', yu, 'degrees_N', 'y', 'ucell latitude', &
       set_name='ocean', Domain2=domain, aux='geolat_c')
  ax_st_edges = diag_axis_init('st_edges_ocean', st_edges, 'meters', 'z', 'tcell zstar depth edges', &
       direction=-1, set_name='ocean')
  ax_st = diag_axis_init('st_ocean', st, 'meters', 'z', 'tcell zstar depth', &
       edges=ax_st_edges, direction=-1, set_name='ocean')

  time = set_date(1, 1, 1, 0, 0, 0)
  dt = set_time(dt_seconds, 0)
#ifdef FMS_SEND_COMPLETE
  call diag_manager_set_time_end(set_date(1, 1, 1, 0, 0, 0) + set_time(steps * dt_seconds, 0))
#endif

  ! MOM5's registrations (ocean_tracer.F90, ocean_velocity.F90, ocean_barotropic.F90,
  ! ocean_grids.F90): the same names, long names, units, ranges, standard names
  id_temp = field('temp', (/ax_xt, ax_yt, ax_st/), 'Conservative temperature', 'deg_C', &
       (/-10.0_dp, 500.0_dp/), 'sea_water_conservative_temperature')
  id_salt = field('salt', (/ax_xt, ax_yt, ax_st/), 'Practical Salinity', 'psu', &
       (/-10.0_dp, 100.0_dp/), 'sea_water_salinity')
  id_u = field('u', (/ax_xu, ax_yu, ax_st/), 'i-current', 'm/sec', (/-10.0_dp, 10.0_dp/), 'sea_water_x_velocity')
  id_v = field('v', (/ax_xu, ax_yu, ax_st/), 'j-current', 'm/sec', (/-10.0_dp, 10.0_dp/), 'sea_water_y_velocity')
  id_age = field('age_global', (/ax_xt, ax_yt, ax_st/), 'Age (global)', 'yr', (/0.0_dp, 1.0e20_dp/), &
       'sea_water_age_since_surface_contact')
  id_eta = field('eta_t', (/ax_xt, ax_yt/), 'surface height on T cells [Boussinesq (volume conserving) model]', &
       'meter', (/-1.0e3_dp, 1.0e3_dp/), '')
  id_sst = field('surface_temp', (/ax_xt, ax_yt/), 'Conservative temperature', 'deg_C', (/-10.0_dp, 500.0_dp/), &
       'sea_surface_conservative_temperature')
  ! the static grid fields come without a missing value (diag_manager gives its default)
  id_lon_t = register_static_field('ocean_model', 'geolon_t', (/ax_xt, ax_yt/), 'tracer longitude', 'degrees_E', &
       range=(/-281.0_dp, 361.0_dp/))
  id_lat_t = register_static_field('ocean_model', 'geolat_t', (/ax_xt, ax_yt/), 'tracer latitude', 'degrees_N', &
       range=(/-91.0_dp, 91.0_dp/))
  id_lon_c = register_static_field('ocean_model', 'geolon_c', (/ax_xu, ax_yu/), 'uv longitude', 'degrees_E', &
       range=(/-281.0_dp, 361.0_dp/))
  id_lat_c = register_static_field('ocean_model', 'geolat_c', (/ax_xu, ax_yu/), 'uv latitude', 'degrees_N', &
       range=(/-91.0_dp, 91.0_dp/))

  allocate(f3(nx, ny, nk), f2(nx, ny))
  ! the static grid, sent once as MOM5's init_grids_diag does
  call lonlat(xt, .true.);  if (id_lon_t > 0) used = send_data(id_lon_t, f2, time)
  call lonlat(yt, .false.); if (id_lat_t > 0) used = send_data(id_lat_t, f2, time)
  call lonlat(xu, .true.);  if (id_lon_c > 0) used = send_data(id_lon_c, f2, time)
  call lonlat(yu, .false.); if (id_lat_c > 0) used = send_data(id_lat_c, f2, time)

  do step = 1, steps
    time = time + dt
    call field3(1, step); if (id_temp > 0) used = send_data(id_temp, f3, time)
    call field3(2, step); if (id_salt > 0) used = send_data(id_salt, f3, time)
    call field3(3, step); if (id_u > 0)    used = send_data(id_u, f3, time)
    call field3(4, step); if (id_v > 0)    used = send_data(id_v, f3, time)
    call field3(5, step); if (id_age > 0)  used = send_data(id_age, f3, time)
    call field2(6, step); if (id_eta > 0)  used = send_data(id_eta, f2, time)
    call field2(7, step); if (id_sst > 0)  used = send_data(id_sst, f2, time)
#ifdef FMS_SEND_COMPLETE
    call diag_send_complete(dt)
#endif
  end do

  call diag_manager_end(time)
  if (mpp_pe() == mpp_root_pe()) call mpp_error(NOTE, 'mom_diag_driver: done')
  call fms_end()

contains

  ! a time-averaged field as MOM5 registers it: MOM5's missing value, its range,
  ! a CF standard name where MOM5 gives one ('' for none)
  integer function field(name, axes, long_name, units, range, std)
    character(len=*), intent(in) :: name, long_name, units, std
    integer, intent(in) :: axes(:)
    real(dp), intent(in) :: range(2)
    if (len(std) > 0) then
      field = register_diag_field('ocean_model', name, axes, time, long_name, units, missing_value=missing, &
           range=range, standard_name=std)
    else
      field = register_diag_field('ocean_model', name, axes, time, long_name, units, missing_value=missing, &
           range=range)
    end if
  end function field

  ! input.nml's mom_diag_driver_nml, read by every PE; refused with the reason
  subroutine read_settings()
    integer :: unit, ios
    open(newunit=unit, file='input.nml', status='old', action='read', iostat=ios)
    if (ios /= 0) call mpp_error(FATAL, 'mom_diag_driver: cannot open input.nml')
    read(unit, nml=mom_diag_driver_nml, iostat=ios)
    close(unit)
    if (ios /= 0) call mpp_error(FATAL, 'mom_diag_driver: input.nml: no readable &mom_diag_driver_nml')
    if (ni < 1 .or. nj < 1 .or. nk < 1 .or. steps < 0 .or. dt_seconds < 1) &
      call mpp_error(FATAL, 'mom_diag_driver: ni, nj, nk, dt_seconds must be >= 1 and steps >= 0')
  end subroutine read_settings

  ! mom_io's axes (src/mom/mom_schema.c): T points at cell centres, U points at
  ! their north-east corners, depths stretched with level
  subroutine make_axes()
    integer :: i, k
    allocate(xt(ni), xu(ni), yt(nj), yu(nj), st(nk), st_edges(nk + 1))
    do i = 1, ni
      xt(i) = -280.0_dp + (real(i, dp) - 0.5_dp) * 360.0_dp / real(ni, dp)
      xu(i) = -280.0_dp + real(i, dp) * 360.0_dp / real(ni, dp)
    end do
    do i = 1, nj
      yt(i) = -90.0_dp + (real(i, dp) - 0.5_dp) * 180.0_dp / real(nj, dp)
      yu(i) = -90.0_dp + real(i, dp) * 180.0_dp / real(nj, dp)
    end do
    do k = 1, nk
      st(k) = 5.0_dp + 10.0_dp * real(k - 1, dp) * (1.0_dp + real(k - 1, dp) / real(nk, dp))
    end do
    ! edges halfway between levels, the outer ones mirrored (MOM5's st_bounds)
    st_edges(1) = 0.0_dp
    do k = 2, nk
      st_edges(k) = 0.5_dp * (st(k - 1) + st(k))
    end do
    st_edges(nk + 1) = 2.0_dp * st(nk) - st_edges(nk)
  end subroutine make_axes

  ! f2 = the longitude (x axis) or latitude (y axis) of this PE's points
  subroutine lonlat(axis, is_x)
    real(dp), intent(in) :: axis(:)
    logical, intent(in) :: is_x
    integer :: i, j
    do j = 1, ny
      do i = 1, nx
        if (is_x) then
          f2(i, j) = axis(isc + i - 1)
        else
          f2(i, j) = axis(jsc + j - 1)
        end if
      end do
    end do
  end subroutine lonlat

  ! a smooth value of field n at global point (i, j, k) and step s
  pure real(dp) function value_at(n, i, j, k, s)
    integer, intent(in) :: n, i, j, k, s
    value_at = real(n, dp) + 0.01_dp * real(i, dp) + 0.001_dp * real(j, dp) &
         - 0.1_dp * real(k, dp) + 0.5_dp * real(s, dp)
  end function value_at

  subroutine field3(n, s)
    integer, intent(in) :: n, s
    integer :: i, j, k
    do k = 1, nk
      do j = 1, ny
        do i = 1, nx
          f3(i, j, k) = value_at(n, isc + i - 1, jsc + j - 1, k, s)
        end do
      end do
    end do
  end subroutine field3

  subroutine field2(n, s)
    integer, intent(in) :: n, s
    integer :: i, j
    do j = 1, ny
      do i = 1, nx
        f2(i, j) = value_at(n, isc + i - 1, jsc + j - 1, 1, s)
      end do
    end do
  end subroutine field2

end program mom_diag_driver
