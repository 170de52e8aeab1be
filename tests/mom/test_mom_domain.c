/* mom_io's FMS-style decomposition: extents, automatic layouts, io domains and
 * their roots, and the errors for layouts that cannot work. */
/* sanitizers: yes */
#include "config.h"
#include "../check.h"
#include "mom_config.h"
#include "grids/mom_domain.h"

static void test_extents(void)
{
    int64_t b[16], n[16];
    mom_extents(1440, 16, b, n);            /* the 0.25 degree case divides evenly */
    for (int i = 0; i < 16; i++) CHECK_EQ_INT(n[i], 90);
    CHECK_EQ_INT(b[15], 1350);
    /* FMS mpp_compute_extent mirrors uneven extents about the centre */
    mom_extents(41, 3, b, n);
    CHECK_EQ_INT(n[0], 14);
    CHECK_EQ_INT(n[1], 13);
    CHECK_EQ_INT(n[2], 14);
    CHECK_EQ_INT(b[1], 14);
    CHECK_EQ_INT(b[2], 27);
    mom_extents(10, 3, b, n);               /* FMS's own answer: 4, 2, 4 */
    CHECK_EQ_INT(n[0], 4);
    CHECK_EQ_INT(n[1], 2);
    CHECK_EQ_INT(n[2], 4);
    CHECK_EQ_INT(b[2], 6);
    mom_extents(30, 4, b, n);               /* both even: 8, 7, 7, 8 */
    CHECK_EQ_INT(n[0], 8);
    CHECK_EQ_INT(n[1], 7);
    CHECK_EQ_INT(n[2], 7);
    CHECK_EQ_INT(n[3], 8);
    mom_extents(10, 4, b, n);               /* 4 even divisions of an even count: 3, 2, 2, 3 */
    CHECK_EQ_INT(n[0] * 1000 + n[1] * 100 + n[2] * 10 + n[3], 3223);
    mom_extents(7, 2, b, n);                /* no symmetry possible (odd points, even divisions): 4, 3 */
    CHECK_EQ_INT(n[0] * 10 + n[1], 43);
    mom_extents(40, 3, b, n);               /* even points, 3 < 40/2: 14, 12, 14 */
    CHECK_EQ_INT(n[0] * 10000 + n[1] * 100 + n[2], 141214);
}

static void test_auto_layout(void)
{
    int l[2];
    mom_auto_layout(1440, 1080, 240, l);    /* the study's layout */
    CHECK_EQ_INT(l[0], 16);
    CHECK_EQ_INT(l[1], 15);
    mom_auto_layout(40, 30, 4, l);
    CHECK_EQ_INT(l[0], 2);
    CHECK_EQ_INT(l[1], 2);
    mom_auto_layout(40, 30, 7, l);          /* a prime: one row of PEs */
    CHECK_EQ_INT(l[0] * l[1], 7);
    mom_auto_layout(40, 30, 1, l);
    CHECK_EQ_INT(l[0], 1);
    CHECK_EQ_INT(l[1], 1);

    int io[2], lay[2] = {48, 15};
    CHECK_EQ_INT(mom_auto_io_layout(lay, 720, 16, io), 0);   /* 0.1 degree: one io domain per 16-core node */
    CHECK_EQ_INT(io[0], 3);
    CHECK_EQ_INT(io[1], 15);
    int lay2[2] = {16, 15};
    CHECK_EQ_INT(mom_auto_io_layout(lay2, 240, 16, io), 0);  /* a PE row per node */
    CHECK_EQ_INT(io[0], 1);
    CHECK_EQ_INT(io[1], 15);
    CHECK_EQ_INT(mom_auto_io_layout(lay2, 240, 32, io), -1); /* 15 PE rows cannot pair up on 32-PE nodes */
    int lay3[2] = {16, 16};
    CHECK_EQ_INT(mom_auto_io_layout(lay3, 256, 32, io), 0);
    CHECK_EQ_INT(io[0], 1);
    CHECK_EQ_INT(io[1], 8);
    int lay4[2] = {6, 5};
    CHECK_EQ_INT(mom_auto_io_layout(lay4, 30, 4, io), -1);   /* no fit: falls back to 1,1 */
    CHECK_EQ_INT(io[0] * io[1], 1);
    CHECK_EQ_INT(mom_auto_io_layout(lay4, 30, 64, io), 0);   /* one node */
    CHECK_EQ_INT(io[0] * io[1], 1);
}

static void test_io_domains(void)
{
    mom_domain d;
    cio_err e = {0};
    int lay[2] = {4, 2}, io[2] = {2, 2};
    CHECK_EQ_INT(mom_domain_init(&d, 40, 30, 8, lay, "t:1", io, "t:2", 8, &e), 0);
    CHECK_EQ_INT(mom_ntiles(&d), 4);
    CHECK_EQ_INT(mom_tile_size(&d), 2);
    /* PE = ix + iy*4; tile = jgroup*2 + igroup; root = lowest PE of the group */
    CHECK_EQ_INT(mom_tile_of(&d, 0), 0);
    CHECK_EQ_INT(mom_tile_of(&d, 1), 0);
    CHECK_EQ_INT(mom_tile_of(&d, 2), 1);
    CHECK_EQ_INT(mom_tile_of(&d, 4), 2);
    CHECK_EQ_INT(mom_tile_of(&d, 7), 3);
    CHECK_EQ_INT(mom_tile_root(&d, 1), 2);
    CHECK_EQ_INT(mom_tile_root(&d, 3), 6);
    int pes[8];
    CHECK_EQ_INT(mom_tile_members(&d, 3, pes), 2);
    CHECK_EQ_INT(pes[0], 6);
    CHECK_EQ_INT(pes[1], 7);
    mom_box b = mom_tile_box(&d, 3);
    CHECK_EQ_INT(b.x, 20);
    CHECK_EQ_INT(b.y, 15);
    CHECK_EQ_INT(b.nx, 20);
    CHECK_EQ_INT(b.ny, 15);
    mom_box p = mom_pe_box(&d, 5);
    CHECK_EQ_INT(p.x, 10);
    CHECK_EQ_INT(p.y, 15);
    CHECK_EQ_INT(p.nx, 10);
    /* every point in exactly one compute domain */
    int64_t area = 0;
    for (int pe = 0; pe < 8; pe++) {
        mom_box q = mom_pe_box(&d, pe);
        area += q.nx * q.ny;
    }
    CHECK_EQ_INT(area, 40 * 30);
    mom_domain_free(&d);

    int io2[2] = {2, 1}, lay2[2] = {2, 2};      /* io domains of a column of PEs: members not consecutive */
    CHECK_EQ_INT(mom_domain_init(&d, 40, 30, 4, lay2, "t:1", io2, "t:2", 4, &e), 0);
    CHECK_EQ_INT(mom_tile_members(&d, 1, pes), 2);
    CHECK_EQ_INT(pes[0], 1);
    CHECK_EQ_INT(pes[1], 3);
    CHECK_EQ_INT(mom_tile_root(&d, 1), 1);
    mom_domain_free(&d);
}

static void test_errors(void)
{
    mom_domain d;
    cio_err e = {0};
    int lay[2] = {4, 1}, io[2] = {3, 1};
    CHECK(mom_domain_init(&d, 40, 30, 4, lay, "mom.in:3", io, "mom.in:4", 4, &e) != 0);
    CHECK_CONTAINS(e.msg, "io_layout 3,1 (mom.in:4) does not divide layout 4,1 (mom.in:3)");
    cio_err e2 = {0};
    int lay2[2] = {16, 15}, io2[2] = {1, 1};
    CHECK(mom_domain_init(&d, 1440, 1080, 4, lay2, "mom.in.025deg:20", io2, "x", 4, &e2) != 0);
    CHECK_CONTAINS(e2.msg, "layout 16,15 (mom.in.025deg:20) needs 240 PEs, this run has 4");
    cio_err e3 = {0};
    int lay3[2] = {8, 1};
    CHECK(mom_domain_init(&d, 6, 30, 8, lay3, "command line", io2, "x", 8, &e3) != 0);
    CHECK_CONTAINS(e3.msg, "at most 6 PEs along x");
    cio_err e4 = {0};
    int lay4[2] = {2, 2}, io4[2] = {1, 4};
    CHECK(mom_domain_init(&d, 40, 30, 4, lay4, "a", io4, "b", 4, &e4) != 0);
    CHECK_CONTAINS(e4.msg, "2 PEs along y cannot form 4 equal io domains");
}

static void test_pairs(void)
{
    int p[2];
    CHECK_EQ_INT(mom_parse_pair("16,15", p, 0), 0);
    CHECK_EQ_INT(p[0] * 100 + p[1], 1615);
    CHECK_EQ_INT(mom_parse_pair("16x15", p, 0), 0);
    CHECK_EQ_INT(mom_parse_pair(" 3 , 5 ", p, 0), 0);
    CHECK_EQ_INT(p[1], 5);
    CHECK_EQ_INT(mom_parse_pair("auto", p, 0), 0);
    CHECK_EQ_INT(p[0] + p[1], -2);
    CHECK_EQ_INT(mom_parse_pair("0,0", p, 1), 0);       /* io_layout: MOM5's no io domain */
    CHECK_EQ_INT(p[0] + p[1], 0);
    CHECK(mom_parse_pair("16", p, 0) != 0);
    CHECK(mom_parse_pair("0,4", p, 0) != 0);
    CHECK(mom_parse_pair("4,4,4", p, 0) != 0);
    CHECK(mom_parse_pair("automatic", p, 0) != 0);
}

int main(void)
{
    test_extents();
    test_auto_layout();
    test_io_domains();
    test_errors();
    test_pairs();
    return CHECK_DONE();
}
