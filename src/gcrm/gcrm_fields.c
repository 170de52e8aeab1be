#include "config.h"
#include "gcrm_fields.h"
#include "base/util.h"

#include <string.h>

/* GCRM-IO's registered history fields */
static const char *const history[] = {
    "relative", "vel_pot", "strm_func", "divergence", "ke", "vorticity", "mass", "pressure", "temperature_lyr",
    "geopotential", "u", "v", "wind", "w_vert", "exner_lyr", "clus_mask", "heat_flux_vdiff_ifc", "relative_edge",
    "divergence_edge", NULL};
static const char *const history_physics[] = {
    "water_vapor_lyr", "cloud_water_lyr", "rain_mmr_lyr", "cloud_ice_lyr", "snow_mmr_lyr", "graupel_mmr_lyr",
    "heating_sw_lyr", "heating_lw_lyr", "heating_sw_cs_lyr", "heating_lw_cs_lyr", "heating_latent_lyr",
    "qwv_tend_micro_lyr", "qci_tend_micro_lyr", "qcw_tend_micro_lyr", "qrw_tend_micro_lyr", "qsn_tend_micro_lyr",
    "qgr_tend_micro_lyr", "prec_tot", "prec_frz", "olr", "swinc", "wtr_flux_vdiff_ifc", NULL};
/* and its registered restart fields */
static const char *const restart[] = {
    "dbl_eta", "dbl_eta_f", "dbl_relative", "dbl_psi", "dbl_chi", "dbl_tht_lyr", "dbl_tht_lyr_f", "dbl_div",
    "dbl_div_f", "dbl_w", "dbl_w_f", "dbl_rho", "dbl_mss", "dbl_rho_f", "dbl_rho_adv", "dbl_rho_adv_f",
    "dbl_exn_lyr", "dbl_exn_prm", "dbl_prs_lyr", "dbl_exn_ifc", "dbl_prs_ifc", NULL};
static const char *const restart_physics[] = {
    "dbl_ts", "dbl_gwet", "dbl_zrough", "dbl_vapor_lyr", "dbl_vapor_lyr_f", "dbl_cloudice_lyr",
    "dbl_cloudice_lyr_f", "dbl_cloudwater_lyr", "dbl_cloudwater_lyr_f", "dbl_snowmmr_lyr", "dbl_snowmmr_lyr_f",
    "dbl_rainmmr_lyr", "dbl_rainmmr_lyr_f", "dbl_graupelmmr_lyr", "dbl_graupelmmr_lyr_f", NULL};
static const char *const gridvars[] = {
    "grid", "layers", "interfaces", "grid_center_lat", "grid_center_lon", "grid_corner_lat", "grid_corner_lon",
    "grid_edge_lat", "grid_edge_lon", "cell_corners", "cell_edges", "edge_corners", "cell_neighbors", "area",
    "corner_cell_map_lat", "corner_cell_map_lon", NULL};

static int listed(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (cio_strcaseeq(*list, name)) return 1;
    return 0;
}

int gcrm_gridvar_known(const char *name) { return listed(gridvars, name); }

int gcrm_field_produced(const gcrm_desc_set *ds, int d, int physics)
{
    const gcrm_desc *x = &ds->d[d];
    if (x->avg_of >= 0) return gcrm_field_produced(ds, x->avg_of, physics);
    if (cio_strcaseeq(x->name, "time")) return 1;
    if (x->isgridvar) return gcrm_gridvar_known(x->name);
    if (listed(history, x->name) || listed(restart, x->name)) return 1;
    if (physics && (listed(history_physics, x->name) || listed(restart_physics, x->name))) return 1;
    return 0;
}
