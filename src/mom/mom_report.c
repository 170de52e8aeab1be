#include "config.h"
#include "mom_report.h"

#include <inttypes.h>
#include <string.h>

static const double MiB = 1048576.0;

static int count_kind(const mom_config *c, mom_kind k)
{
    int n = 0;
    for (int i = 0; i < c->nfields; i++) n += c->fields[i].kind == k;
    return n;
}

static void describe_layout(FILE *out, const mom_config *c, const mom_domain *d)
{
    fprintf(out, "pattern %s: layout %d,%d, ", mom_pattern_name(c->pattern), d->npx, d->npy);
    if (c->pattern == MOM_PAT_SERIAL) fprintf(out, "every field gathered to PE 0 (io_layout not used)");
    else if (c->pattern == MOM_PAT_PERPE && d->no_io) fprintf(out, "io_layout %d,%d: no io domain, one file per PE (MOM5)",
                                                              d->io_given[0], d->io_given[1]);
    else if (c->pattern == MOM_PAT_PERPE) fprintf(out, "one file per PE (io_layout not used)");
    else fprintf(out, "io_layout %d,%d (%d io domain%s of %d PE%s)", d->iox, d->ioy, mom_ntiles(d),
                 mom_ntiles(d) == 1 ? "" : "s", mom_tile_size(d), mom_tile_size(d) == 1 ? "" : "s");
}

static void read_line(FILE *out, const char *name, const mom_read_result *r)
{
    if (!r->done) return;
    fprintf(out, "read %-8s %lld records, %.2f MiB in %.4f s: %.2f MiB/s (open %.4f, read %.4f", name,
            (long long)r->records, r->bytes / MiB, r->seconds, r->seconds > 0 ? r->bytes / MiB / r->seconds : 0,
            r->open_s, r->read_s);
    if (r->scatter_s > 0) fprintf(out, " of which scatter %.4f", r->scatter_s);
    fprintf(out, ", close %.4f); check %s\n", r->close_s, r->mismatches ? "FAIL" : "PASS");
}

void mom_report(FILE *out, const mom_ctx *m)
{
    const mom_config *c = &m->cfg;
    fprintf(out, "==== mom_io ======================================================\n");
    describe_layout(out, c, &m->dom);
    if (c->pattern != MOM_PAT_NONE)
        fprintf(out, ", %d writer%s, %d file%s: %s%s\n", m->nwriters, m->nwriters == 1 ? "" : "s", m->nfiles,
                m->nfiles == 1 ? "" : "s", m->role.writer ? m->role.path : "", m->nfiles > 1 ? " ..." : "");
    else
        fprintf(out, "\n");
    fprintf(out, "grid %lld x %lld x %lld; %d 3-D, %d 2-D and %d static fields (%s); %lld records every %g s\n",
            (long long)c->ni, (long long)c->nj, (long long)c->nk, count_kind(c, MOM_F3D), count_kind(c, MOM_F2D),
            count_kind(c, MOM_FSTATIC), c->type == CIO_FLOAT ? "float32" : "float64", (long long)c->records,
            c->output_freq);
    if (c->pattern != MOM_PAT_NONE) {
        fprintf(out, "write    %.2f MiB in %.4f s: %.2f MiB/s (mpp_open + mpp_write + mpp_close of the slowest PE)\n",
                m->data_bytes / MiB, m->write_seconds,
                m->write_seconds > 0 ? m->data_bytes / MiB / m->write_seconds : 0);
        if (m->gather_bytes > 0)
            fprintf(out, "gather   %.2f MiB moved to the roots; %.4f s on the slowest PE\n", m->gather_bytes / MiB,
                    m->gather_max);
    }
    read_line(out, "serial", &m->rd[0]);
    read_line(out, "parallel", &m->rd[1]);
    mom_clocks_print(out, m->clocks, m->app->nprocs);
    fprintf(out, "==================================================================\n");
}

static void json_read(cio_json *j, const char *key, const mom_read_result *r)
{
    cio_json_obj(j, key);
    cio_json_int(j, "records", r->records);
    cio_json_int(j, "bytes", r->bytes);
    cio_json_num(j, "seconds", r->seconds);
    cio_json_num(j, "bandwidth_MiBps", r->seconds > 0 ? r->bytes / MiB / r->seconds : 0);
    cio_json_num(j, "open_seconds", r->open_s);
    cio_json_num(j, "read_seconds", r->read_s);
    cio_json_num(j, "scatter_seconds", r->scatter_s);
    cio_json_num(j, "close_seconds", r->close_s);
    cio_json_int(j, "elements_checked", r->elements);
    cio_json_int(j, "mismatches", r->mismatches);
    if (r->mismatches) cio_json_str(j, "first_mismatch", r->first_mismatch);
    cio_json_obj_end(j);
}

void mom_json(cio_json *j, void *ctx)
{
    const mom_ctx *m = ctx;
    const mom_config *c = &m->cfg;
    const mom_domain *d = &m->dom;
    cio_json_str(j, "pattern", mom_pattern_name(c->pattern));
    cio_json_obj(j, "grid");
    cio_json_int(j, "ni", c->ni);
    cio_json_int(j, "nj", c->nj);
    cio_json_int(j, "nk", c->nk);
    cio_json_obj_end(j);
    cio_json_arr(j, "layout");
    cio_json_int(j, NULL, d->npx);
    cio_json_int(j, NULL, d->npy);
    cio_json_arr_end(j);
    cio_json_arr(j, "io_layout");
    cio_json_int(j, NULL, d->io_given[0]);
    cio_json_int(j, NULL, d->io_given[1]);
    cio_json_arr_end(j);
    cio_json_int(j, "io_domains", d->no_io ? 0 : mom_ntiles(d));
    cio_json_int(j, "writers", m->nwriters);
    cio_json_int(j, "files", m->nfiles);
    char prefix[4096];
    mom_file_prefix(c, prefix, sizeof prefix);
    cio_json_str(j, "file", prefix);
    cio_json_bool(j, "file_set", m->nfiles > 1);
    cio_json_str(j, "type", c->type == CIO_FLOAT ? "float" : "double");
    cio_json_int(j, "records", c->records);
    cio_json_num(j, "output_freq_seconds", c->output_freq);
    cio_json_str(j, "flush", c->flush_record ? "record" : "field");
    cio_json_arr(j, "fields");
    for (int i = 0; i < c->nfields; i++) {
        cio_json_obj(j, NULL);
        cio_json_str(j, "name", c->fields[i].name);
        cio_json_str(j, "kind", c->fields[i].kind == MOM_F3D ? "3d" : c->fields[i].kind == MOM_F2D ? "2d" : "static");
        cio_json_str(j, "grid", c->fields[i].grid == MOM_GRID_U ? "u" : "t");
        cio_json_obj_end(j);
    }
    cio_json_arr_end(j);
    cio_json_obj(j, "write");
    cio_json_num(j, "seconds", m->write_seconds);
    cio_json_num(j, "wall_seconds", m->write_wall);
    cio_json_int(j, "data_bytes", c->pattern == MOM_PAT_NONE ? 0 : m->data_bytes);
    cio_json_num(j, "bandwidth_MiBps", m->write_seconds > 0 ? m->data_bytes / MiB / m->write_seconds : 0);
    cio_json_int(j, "gather_bytes", m->gather_bytes);
    cio_json_num(j, "gather_seconds_max", m->gather_max);
    cio_json_obj_end(j);
    /* checksums of the global fields, made from the compute domains: equal for
     * every pattern, and to the "checksums" of a single file (serial, parallel or
     * combined); the "checksums" of a set's members are over their own indices */
    cio_json_obj(j, "global_checksums");
    if (m->gsum && c->pattern != MOM_PAT_NONE)
        for (int i = 0; i < c->nfields; i++) {
            char hex[20];
            snprintf(hex, sizeof hex, "%016" PRIx64, m->gsum[i]);
            cio_json_str(j, c->fields[i].name, hex);
        }
    cio_json_obj_end(j);
    cio_json_obj(j, "read");
    if (m->read_path) cio_json_str(j, "file", m->read_path);
    if (m->rd[0].done) json_read(j, "serial", &m->rd[0]);
    if (m->rd[1].done) json_read(j, "parallel", &m->rd[1]);
    cio_json_obj_end(j);
    cio_json_obj(j, "hints_read");
    for (int i = 0; i < m->rd_hints.n; i++) cio_json_str(j, m->rd_hints.key[i], m->rd_hints.val[i]);
    cio_json_obj_end(j);
    mom_clocks_json(j, m->clocks);
}

/* ---------------------------------------------------------------- dry run */
/* mom_io's own lines (roles, gathers, model memory: arithmetic on the layouts),
 * then the suite's planner, which runs mom_plan_rank for every virtual rank. */
int mom_dry_run_preamble(cio_app *a, void *ctx, int n)
{
    (void)a;
    const mom_ctx *m = ctx;
    const mom_config *c = &m->cfg;
    mom_domain d;
    cio_err e = {0};
    if (mom_domain_init(&d, c->ni, c->nj, n, c->layout, c->layout_origin, c->io_layout, c->io_layout_origin, n, &e)) {
        fprintf(stderr, "mom_io: error: %s\n", e.msg);
        return 2;
    }
    size_t ts = cio_type_size(c->type);
    int64_t per_rec = 0, fixed = 0, gather = 0, blk_max = 0, area_max = 0;
    for (int i = 0; i < c->nfields; i++) {
        int64_t z = c->fields[i].kind == MOM_F3D ? c->nk : 1;
        if (c->fields[i].kind == MOM_FSTATIC) fixed += z;
        else per_rec += z;
    }
    int64_t levels = fixed + per_rec * c->records;     /* 2-D slabs gathered over the run */
    int64_t nz = count_kind(c, MOM_F3D) ? c->nk : 1;
    int nslots = c->flush_record ? c->nfields : 1, writers = 0;
    for (int r = 0; r < n; r++) {
        mom_role role;
        mom_role_for(c, &d, r, &role);
        writers += role.writer;
        if (role.in_group && role.is_root) gather += (role.area.nx * role.area.ny - role.mine.nx * role.mine.ny) * levels;
        int64_t b = nz * role.mine.nx * role.mine.ny * (int64_t)ts * nslots;
        int64_t a = role.is_root && role.in_group ? nz * role.area.nx * role.area.ny * (int64_t)ts * nslots : 0;
        if (b > blk_max) blk_max = b;
        if (a > area_max) area_max = a;
    }
    printf("mom_io plan for %d PEs: ", n);
    describe_layout(stdout, c, &d);
    printf(", %d writer%s\n", writers, writers == 1 ? "" : "s");
    printf("  grid %lld x %lld x %lld in compute domains of up to %lld x %lld; %lld records of %d fields\n",
           (long long)c->ni, (long long)c->nj, (long long)c->nk, (long long)d.xn[0], (long long)d.yn[0],
           (long long)c->records, c->nfields);
    printf("  gather: %.2f MiB moved to the roots; model data %.2f MiB per PE at most, assembly buffer %.2f MiB on a "
           "root\n",
           (double)gather * (double)ts / MiB, blk_max / MiB, area_max / MiB);
    mom_domain_free(&d);
    return 0;
}
