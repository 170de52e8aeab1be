#include "config.h"
#include "mom_model.h"
#include "mom_config.h"

#include <string.h>

/* A continent: an ellipse in (lon, lat) degrees whose radius wobbles with a low
 * wave, so coasts are not plain ellipses. */
typedef struct continent {
    double lon, lat, a, b, wobble;
} continent;

static const continent CONTINENTS[] = {
    {-100.0, 45.0, 32.0, 22.0, 0.20},   /* North America */
    {-60.0, -15.0, 18.0, 35.0, 0.15},   /* South America */
    {20.0, 5.0, 24.0, 32.0, 0.15},      /* Africa */
    {75.0, 50.0, 70.0, 22.0, 0.20},     /* Eurasia */
    {135.0, -25.0, 20.0, 13.0, 0.10},   /* Australia */
};

/* Land at the surface inside each continent and south of 70 S.  Below the surface
 * the ocean floor: shallow shelves near the coasts deepening to the full depth
 * away from them, with a mid-ocean ridge, so deeper levels hold more land (as
 * MOM's kmt does). */
int mom_land(double lon, double lat, double z)
{
    double e = 1.0e9;   /* the least (distance / radius)^2 over the continents: < 1 inside one */
    for (size_t k = 0; k < sizeof CONTINENTS / sizeof *CONTINENTS; k++) {
        const continent *c = &CONTINENTS[k];
        double dl = lon - c->lon;
        while (dl > 180.0) dl -= 360.0;
        while (dl < -180.0) dl += 360.0;
        double x = dl / c->a, y = (lat - c->lat) / c->b;
        double r = 1.0 + c->wobble * cio_model_sin_turns(3.0 * lon / 360.0 + lat / 120.0);
        double ek = (x * x + y * y) / (r * r);
        if (ek < e) e = ek;
    }
    if (e < 1.0 || lat < -70.0) return 1;
    if (z < 0) return 0;
    /* the floor, as a fraction of the deepest level: shelves, slopes, ridge */
    double floor = 0.1 + 1.5 * (e - 1.0);
    double shelf = 0.1 + (lat + 70.0) / 12.0;
    if (shelf < floor) floor = shelf;
    floor -= 0.05 * (1.0 + cio_model_sin_turns(2.0 * lon / 360.0 + lat / 200.0));
    return z > floor;
}

double mom_depth(const mom_config *c, int64_t k)
{
    return 5.0 + 10.0 * (double)k * (1.0 + (double)k / (double)c->nk);
}

/* A level's depth as a fraction of a 5000 m ocean. */
static double zlevel(const void *ctx, int64_t k)
{
    double z = mom_depth(ctx, k) / 5000.0;
    return z < 1.0 ? z : 1.0;
}

/* MOM's axes (mom_schema.c): x from 280 W, T points at cell centres and U points at
 * their north-east corners; pole to pole in y. */
void mom_model_geom(const mom_config *c, int ugrid, int is3d, cio_model_geom *g)
{
    memset(g, 0, sizeof *g);
    g->zdim = is3d ? 0 : -1;
    g->ydim = is3d ? 1 : 0;
    g->xdim = is3d ? 2 : 1;
    g->celldim = -1;
    g->dx = 360.0 / (double)c->ni;
    g->dy = 180.0 / (double)c->nj;
    g->x0 = -280.0 + (ugrid ? 1.0 : 0.5) * g->dx;
    g->y0 = -90.0 + (ugrid ? 1.0 : 0.5) * g->dy;
    g->ocean = 1;
    g->zlevel = zlevel;
    g->zctx = c;
    g->land = mom_land;
    g->fill = MOM_MISSING_VALUE;
}
