/* pfio_io: the GEOS MAPL PFIO output kernel.
 *
 *   mpiexec -n 56 ./pfio_io --npes_model 28 --oserver_type multigroup \
 *           --nodes_output_server 1 --npes_backend_pernode 5 --with_io_profiler
 *
 * Splits the ranks into the model and the output servers as MAPL does, runs
 * pfio_MAPL_demo's workload through PFIO's protocol, and reports PFIO's
 * profiler blocks, the overlap of output with computation, and the suite's
 * statistics and JSON. */
#include "config.h"
#include "app/kernel.h"
#include "pfio_serve.h"
#include "base/util.h"

#include <string.h>
#include <unistd.h>

static const char usage[] =
    "mpiexec -n N pfio_io [pfio.in] [--npes_model N] [--npes_output_server N [N ...] | --nodes_output_server K [K ...]]\n"
    "       [--oserver_type single|multigroup|multicomm|multilayer] [--npes_backend_pernode B] [--one_node_output]\n"
    "       [--multilayer_backend spawn|world] [--fast_oclient]"
    " [--compress_nodes] [--with_io_profiler] [--cores_per_node C] [--driver D] [--key value ...]";

static const char builtin[] =
    "! pfio_MAPL_demo: 360x181x72 temperature and 360x181 tracer, 18 steps, 6 records per file\n"
    "im_world 360\njm_world 181\nkm_world 72\nvariables temperature:3d,tracer:2d\n"
    "num_steps 18\nnum_time_records 6\n";

/* Server options of another server type than the one run: rows of the
 * applicability table (app/applicability.h), said, not ignored. */
static int server_lacks(const cio_app *a, const void *kctx, int has, const char *what, char *why, size_t n)
{
    const pf_ctx *c = kctx;
    if (!c || has) return 0;
    snprintf(why, n, ": only the %s; this run's server is %s", what, cio_param_str(a->params, "oserver_type"));
    return 1;
}
static int no_writers_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                            char *why, size_t n)
{
    (void)row, (void)key;
    return server_lacks(a, kctx, kctx && ((const pf_ctx *)kctx)->o.multilayer,
                        "multilayer server has writer processes to start", why, n);
}
static int no_backend_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                            char *why, size_t n)
{
    (void)row, (void)key;
    const pf_opts *o = kctx ? &((const pf_ctx *)kctx)->o : NULL;
    return server_lacks(a, kctx, o && (o->multilayer || o->multigroup || o->multicomm),
                        "multigroup, multicomm and multilayer servers have backend ranks", why, n);
}
static const cio_applies_mode no_writers = {"a server other than multilayer", CIO_APPLIES_AT_SETUP, 0,
                                            no_writers_holds,
                                            "--oserver_type single|--oserver_type multigroup --npes_backend_pernode 2"};
static const cio_applies_mode no_backend = {"a server without backend ranks (single)", CIO_APPLIES_AT_SETUP, 0,
                                            no_backend_holds, "--oserver_type single|--oserver_type multigroup"};
static const cio_applicability pfio_applicability[] = {
    {"multilayer_backend", 0, &no_writers, 0, 0, 0, "world", 0},
    {"npes_backend_pernode", 0, &no_backend, 0, 0, 0, "2", 0},
    CIO_APPLICABILITY_END,
};

/* ---------------------------------------------------------------- the descriptor's steps */
/* What its parameters alone ask (kernel_facts.h): MAPL writes netCDF-4, its
 * writers through the serial API with netCDF-C's own chunks. */
static void pfio_asks(const cio_params *p, cio_kernel_asks *k)
{
    k->kernel_format = CIO_FMT_NC4;
    const cio_driver *nc4 = cio_driver_for_format(CIO_FMT_NC4);
    k->driver = nc4 ? nc4 : cio_drivers[0];
    k->driver_origin = "default (pfio_io: netCDF-4 when built)";
    const char *name = cio_param_str(p, "driver");
    const cio_driver *d = name ? cio_driver_find(name) : k->driver;
    if (d && d->serial_api && !cio_param_isset(p, "nc_serial")) {
        /* MAPL's writers use the serial netCDF-4 API, one process a file
         * (NetCDF4_FileFormatter: nf90_create, not nf90_create_par) */
        k->serial = 1;
        k->serial_origin = "default (pfio_io: PFIO's writers use the serial netCDF API)";
        /* the demo (and HISTORY unless a collection asks) sets no chunk sizes:
         * netCDF-C's own default chunking */
        k->chunking = "default";
        k->chunking_origin = "default (pfio_io: netCDF-C's chunks, as MAPL's writers)";
    }
}

static cio_format pfio_setup(cio_app *a, void *ctx)
{
    pf_ctx *c = ctx;
    cio_params *p = a->params;
    c->app = a;
    c->wrank = a->rank;
    c->server = -1;
    c->write_first = -1;
    c->group_comm = c->front_comm = c->back_comm = c->inter_comm = c->pcomm = MPI_COMM_NULL;
    pf_opts_read(&c->o, p, a->comm);
    /* multilayer: the writer processes join the run before anything else uses it */
    pf_multilayer_join(a, &c->o);
    c->wrank = a->rank;
    static const char *const sizes[] = {"im_world", "jm_world", "km_world", NULL};
    cio_params_alloc_hint(p, sizes);
    return CIO_FMT_NONE;     /* pfio_asks' */
}

static void pfio_prepare(cio_app *a, void *ctx)
{
    pf_ctx *c = ctx;
    /* the format's suffix, but netCDF-4 files are .nc4, as MAPL's demo names them */
    cio_format fmt = a->ecfg.opts.format;
    c->o.file_ext = cio_format_is_netcdf4(fmt) ? ".nc4" : cio_format_suffix(fmt);
    cio_err e = {0};
    if (a->rank == 0) cio_mkdir_p(c->o.output_dir, &e);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "output_dir: %s", e.msg);

    pf_nodes_discover(&c->nodes, a->comm, c->o.cores_per_node);
    if (c->o.poll_us < 0) {
        /* auto: spinning waits only where every rank has a core of its own */
        int on_node = 0, oversub;
        for (int r = 0; r < c->nodes.nprocs; r++) on_node += c->nodes.real_node_of[r] == c->nodes.real_node_of[a->rank];
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        c->o.poll_us = cores > 0 && on_node > cores ? 200 : 0;
        oversub = c->o.poll_us > 0;
        MPI_Allreduce(MPI_IN_PLACE, &oversub, 1, MPI_INT, MPI_MAX, a->comm);
        if (oversub && a->rank == 0 && !c->o.quiet)
            printf("pfio_io: %d ranks on a node of %ld cores: waiting ranks sleep between tests (--server_poll_us 200; "
                   "0 to spin as MAPL does)\n", on_node, cores);
    }
    pf_set_poll(c->o.poll_us);
    /* multilayer: the last ranks are the writer processes, in no node of the layout */
    int layers = pf_layer_procs(&c->o);
    if (layers && a->nprocs - layers < 1)
        cio_die_all(a->comm, "oserver_type multilayer with --multilayer_backend world: the last %d ranks (npes_backend_"
                             "pernode %d x %d server%s) are the writers, but only %d ranks were started",
                    layers, c->o.npes_backend_pernode, c->o.nserver, c->o.nserver == 1 ? "" : "s", a->nprocs);
    if (layers) pf_nodes_truncate(&c->nodes, a->nprocs - layers);
    if (pf_layout_build(&c->L, &c->nodes, &c->o, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    pf_layout_add_layers(&c->L, a->nprocs, &c->o);
    if ((c->o.multigroup || c->o.multilayer) && c->o.nserver == 0 && a->rank == 0)
        cio_warn("--oserver_type %s without server ranks: the simple server runs on the model ranks, as in MAPL",
                 c->o.multigroup ? "multigroup" : "multilayer");
    c->messages = c->o.transfer == 2;
#ifdef OMPI_MAJOR_VERSION
    if (c->o.transfer == 0 && pf_window_collisions(&c->L, &c->nodes, &c->o)) {
        c->messages = 1;
        if (a->rank == 0 && !c->o.quiet)
            cio_warn("several single servers share a node: their blocks go to the writers in messages, not RMA "
                     "windows (Open MPI %d.%d names a window's shared-memory file after its communicator's id, which "
                     "two servers can share); --mpiserver_transfer rma forces windows", OMPI_MAJOR_VERSION,
                     OMPI_MINOR_VERSION);
    }
#endif
    c->role = pf_layout_role(&c->L, a->rank, &c->server);
    int g = c->L.group[a->rank];
    MPI_Comm_split(a->comm, g >= 0 ? g : MPI_UNDEFINED, a->rank, &c->group_comm);
    MPI_Comm_split(a->comm, c->role == PF_ROLE_FRONT ? c->server : MPI_UNDEFINED, a->rank, &c->front_comm);
    MPI_Comm_split(a->comm, c->role == PF_ROLE_ML_CAPTAIN || c->role == PF_ROLE_ML_WRITER ? c->server : MPI_UNDEFINED,
                   a->rank, &c->back_comm);
    MPI_Comm_dup(a->comm, &c->pcomm);
    pf_multilayer_connect(c);

    c->coll = cio_calloc((size_t)c->o.ncollections, sizeof *c->coll);
    for (int i = 0; i < c->o.ncollections; i++) pf_collection_init(&c->coll[i], &c->o, i + 1);
    int np = c->o.nphases;
    c->ph.blocked = cio_calloc((size_t)np, sizeof(double));
    c->ph.aggregate = cio_calloc((size_t)np, sizeof(double));
    c->ph.write = cio_calloc((size_t)np, sizeof(double));
    c->ph.writer_wait = cio_calloc((size_t)np, sizeof(double));
    if (a->rank == 0 && !c->o.quiet) {
        pf_layout_print(stdout, &c->L, &c->nodes, &c->o);
        fflush(stdout);
    }
}

/* The output phase: this rank's role in the PFIO protocol, under the profiler. */
static void pfio_output(cio_app *a, void *ctx)
{
    pf_ctx *c = ctx;
    char root[32];
    switch (c->role) {
    case PF_ROLE_MODEL: snprintf(root, sizeof root, c->o.nserver ? "i_server_client" : "io_server_client"); break;
    case PF_ROLE_SERVER:
    case PF_ROLE_ML_FRONT: snprintf(root, sizeof root, "o_server%d", c->server + 1); break;
    case PF_ROLE_ML_CAPTAIN:
    case PF_ROLE_ML_WRITER: snprintf(root, sizeof root, "pfio_writer"); break;
    default: snprintf(root, sizeof root, "o_server_front"); break;
    }
    pf_prof_init(&c->prof, root,
                 c->o.with_profiler && (c->role == PF_ROLE_MODEL || c->role == PF_ROLE_SERVER || c->role == PF_ROLE_FRONT ||
                                        c->role == PF_ROLE_ML_FRONT || c->role == PF_ROLE_ML_CAPTAIN ||
                                        c->role == PF_ROLE_ML_WRITER));
    double t0 = MPI_Wtime();
    switch (c->role) {
    case PF_ROLE_MODEL: pf_client_run(c); break;
    case PF_ROLE_SERVER: {
        const pf_server_layout *S = &c->L.server[c->server];
        int me, lo = -1, n = 0;
        MPI_Comm_rank(c->group_comm, &me);
        for (int m = 0; m < c->L.nmodel; m++)
            if (pf_server_of_client(m, c->L.nmodel, S->nfront) == me) {
                if (lo < 0) lo = m;
                n++;
            }
        pf_mpiserver *s = pf_mpiserver_new(c, c->group_comm, S->ranks, n, c->L.model + (lo < 0 ? 0 : lo));
        pf_mpiserver_serve(s);
        pf_mpiserver_free(s);
        break;
    }
    case PF_ROLE_FRONT:
        if (c->o.multicomm) pf_multicomm_front_run(c);
        else pf_front_run(c);
        break;
    case PF_ROLE_BACK: pf_multicomm_back_run(c); break;
    case PF_ROLE_ML_FRONT: pf_multilayer_front_run(c); break;
    case PF_ROLE_ML_CAPTAIN: pf_multilayer_captain_run(c); break;
    case PF_ROLE_ML_WRITER: pf_multilayer_writer_run(c); break;
    case PF_ROLE_CAPTAIN: pf_captain_run(c); break;
    case PF_ROLE_WRITER: pf_writer_run(c); break;
    default: break;
    }
    if (c->role == PF_ROLE_MODEL) c->client_wall_s = MPI_Wtime() - t0;
    pf_prof_finish(&c->prof);
    pf_lazy_barrier(a->comm);      /* idle ranks and finished servers wait without spinning */
}

static void pfio_outputs(cio_app *a, void *ctx, cio_outputs *out)
{
    pf_list_outputs(&((pf_ctx *)ctx)->o, a->params, out);
}

static void pfio_report(cio_app *a, void *ctx)
{
    (void)a;
    pf_report(ctx);
}

static void pfio_cleanup(cio_app *a, void *ctx)
{
    pf_ctx *c = ctx;
    for (int i = 0; i < c->o.ncollections && c->coll; i++) pf_collection_free(&c->coll[i]);
    cio_free(c->coll);
    if (c->group_comm != MPI_COMM_NULL) MPI_Comm_free(&c->group_comm);
    if (c->front_comm != MPI_COMM_NULL) MPI_Comm_free(&c->front_comm);
    if (c->back_comm != MPI_COMM_NULL) MPI_Comm_free(&c->back_comm);
    if (c->inter_comm != MPI_COMM_NULL) MPI_Comm_free(&c->inter_comm);
    if (c->pcomm != MPI_COMM_NULL) MPI_Comm_free(&c->pcomm);
    pf_multilayer_leave(a);
}

static const cio_kernel pfio_kernel = {
    .name = "pfio_io",
    .usage = usage,
    .params = pf_params,
    .facts = {.output_folder = &pf_output_folder, .asks = pfio_asks, .applicability = pfio_applicability},
    .default_file = "pfio.in",
    .builtin_name = "<built-in pfio.in>",
    .builtin_text = builtin,
    .argv_rewrite = pf_argv_rewrite,
    .setup = pfio_setup,
    .no_dry_run = "its writers are chosen at run time; run it small instead, e.g. with --driver null",
    .no_aggregation = "its output servers are its aggregation (one writer per file); size them with "
                      "--npes_output_server or --nodes_output_server",
    .no_repetitions = "its model and server ranks run the output once, as MAPL's demo does; run the job again for "
                      "another sample",
    .prepare = pfio_prepare,
    .list_outputs = pfio_outputs,
    .output = pfio_output,
    .report = pfio_report,
    .json = pf_kernel_json,
    .cleanup = pfio_cleanup,
};

int main(int argc, char **argv)
{
    static pf_ctx c;
    return cio_kernel_main(&pfio_kernel, &c, argc, argv);
}
