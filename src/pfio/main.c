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
#include "serve.h"
#include "util.h"

#include <string.h>
#include <unistd.h>

static const char usage[] =
    "mpiexec -n N pfio_io [pfio.in] [--npes_model N] [--npes_output_server N [N ...] | --nodes_output_server K [K ...]]\n"
    "       [--oserver_type single|multigroup] [--npes_backend_pernode B] [--one_node_output] [--fast_oclient]\n"
    "       [--compress_nodes] [--with_io_profiler] [--cores_per_node C] [--driver D] [--key value ...]";

static const char builtin[] =
    "! pfio_MAPL_demo: 360x181x72 temperature and 360x181 tracer, 18 steps, 6 records per file\n"
    "im_world 360\njm_world 181\nkm_world 72\nvariables temperature:3d,tracer:2d\n"
    "num_steps 18\nnum_time_records 6\n";

static const char *ext_of(cio_format f)
{
    switch (f) {
    case CIO_FMT_CDF1:
    case CIO_FMT_CDF2:
    case CIO_FMT_CDF5: return ".nc";
    case CIO_FMT_HDF5: return ".h5";
    case CIO_FMT_RAW: return ".raw";
    case CIO_FMT_BP: return ".bp";
    default: return ".nc4";
    }
}

int main(int argc, char **argv)
{
    int nargc;
    char **nargv = pf_argv_rewrite(argc, argv, &nargc);
    cio_app app;
    cio_app_init(&app, &nargc, &nargv, "pfio_io", usage, pf_params, "pfio.in", "<built-in pfio.in>", builtin);
    app.argc = argc;            /* report the command line as typed */
    app.argv = argv;
    cio_params *p = app.params;
    static pf_ctx c;
    c.app = &app;
    c.wrank = app.rank;
    c.server = -1;
    c.write_first = -1;
    c.group_comm = c.front_comm = c.back_comm = MPI_COMM_NULL;
    pf_opts_read(&c.o, p, app.comm);
    if (cio_param_bool(p, "dry_run"))
        cio_die_all(app.comm, "--dry_run: pfio_io has no dry run (its writers are chosen at run time); run it small, "
                              "e.g. with --driver null");
    if (strcmp(cio_param_str(p, "io_tasks"), "all") != 0)
        cio_die_all(app.comm, "%s: io_tasks: pfio_io's output servers are its aggregation (one writer per file); "
                              "size them with --npes_output_server or --nodes_output_server",
                    cio_param_origin(p, "io_tasks"));
    if (!cio_param_isset(p, "driver")) {
        /* MAPL writes netCDF-4 */
        cio_err e = {0};
        const char *d = cio_driver_find("netcdf") ? "netcdf" : cio_drivers[0]->name;
        cio_params_set(p, "driver", d, "default (pfio_io: netCDF-4 when built)", &e);
    }
    cio_app_setup_engine(&app, CIO_FMT_NC4);
    c.o.file_ext = ext_of(app.ecfg.opts.format);

    cio_err e = {0};
    if (app.rank == 0) cio_mkdir_p(c.o.output_dir, &e);
    if (cio_agree(app.comm, &e)) cio_die_all(app.comm, "output_dir: %s", e.msg);

    pf_nodes_discover(&c.nodes, app.comm, c.o.cores_per_node);
    if (c.o.poll_us < 0) {
        /* auto: spinning waits only where every rank has a core of its own */
        int on_node = 0, oversub;
        for (int r = 0; r < c.nodes.nprocs; r++) on_node += c.nodes.real_node_of[r] == c.nodes.real_node_of[app.rank];
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        c.o.poll_us = cores > 0 && on_node > cores ? 200 : 0;
        oversub = c.o.poll_us > 0;
        MPI_Allreduce(MPI_IN_PLACE, &oversub, 1, MPI_INT, MPI_MAX, app.comm);
        if (oversub && app.rank == 0 && !c.o.quiet)
            printf("pfio_io: %d ranks on a node of %ld cores: waiting ranks sleep between tests (--server_poll_us 200; "
                   "0 to spin as MAPL does)\n", on_node, cores);
    }
    pf_set_poll(c.o.poll_us);
    if (pf_layout_build(&c.L, &c.nodes, &c.o, &e) != 0) cio_die_all(app.comm, "%s", e.msg);
    if (c.o.multigroup && c.o.nserver == 0 && app.rank == 0)
        cio_warn("--oserver_type multigroup without server ranks: the simple server runs on the model ranks, as in MAPL");
    c.messages = c.o.transfer == 2;
#ifdef OMPI_MAJOR_VERSION
    if (c.o.transfer == 0 && pf_window_collisions(&c.L, &c.nodes, &c.o)) {
        c.messages = 1;
        if (app.rank == 0 && !c.o.quiet)
            cio_warn("several single servers share a node: their blocks go to the writers in messages, not RMA "
                     "windows (Open MPI %d.%d names a window's shared-memory file after its communicator's id, which "
                     "two servers can share); --mpiserver_transfer rma forces windows", OMPI_MAJOR_VERSION,
                     OMPI_MINOR_VERSION);
    }
#endif
    c.role = pf_layout_role(&c.L, app.rank, &c.server);
    int g = c.L.group[app.rank];
    MPI_Comm_split(app.comm, g >= 0 ? g : MPI_UNDEFINED, app.rank, &c.group_comm);
    MPI_Comm_split(app.comm, c.role == PF_ROLE_FRONT ? c.server : MPI_UNDEFINED, app.rank, &c.front_comm);
    MPI_Comm_dup(app.comm, &c.pcomm);

    c.coll = cio_calloc((size_t)c.o.ncollections, sizeof *c.coll);
    for (int i = 0; i < c.o.ncollections; i++) pf_collection_init(&c.coll[i], &c.o, i + 1);
    int np = c.o.nphases;
    c.ph.blocked = cio_calloc((size_t)np, sizeof(double));
    c.ph.aggregate = cio_calloc((size_t)np, sizeof(double));
    c.ph.write = cio_calloc((size_t)np, sizeof(double));
    c.ph.writer_wait = cio_calloc((size_t)np, sizeof(double));
    if (app.rank == 0 && !c.o.quiet) {
        pf_layout_print(stdout, &c.L, &c.nodes, &c.o);
        fflush(stdout);
    }

    char root[32];
    switch (c.role) {
    case PF_ROLE_MODEL: snprintf(root, sizeof root, c.o.nserver ? "i_server_client" : "io_server_client"); break;
    case PF_ROLE_SERVER: snprintf(root, sizeof root, "o_server%d", c.server + 1); break;
    default: snprintf(root, sizeof root, "o_server_front"); break;
    }
    pf_prof_init(&c.prof, root,
                 c.o.with_profiler && (c.role == PF_ROLE_MODEL || c.role == PF_ROLE_SERVER || c.role == PF_ROLE_FRONT));
    double t0 = MPI_Wtime();
    switch (c.role) {
    case PF_ROLE_MODEL: pf_client_run(&c); break;
    case PF_ROLE_SERVER: {
        const pf_server_layout *S = &c.L.server[c.server];
        int me, lo = -1, n = 0;
        MPI_Comm_rank(c.group_comm, &me);
        for (int m = 0; m < c.L.nmodel; m++)
            if (pf_server_of_client(m, c.L.nmodel, S->nfront) == me) {
                if (lo < 0) lo = m;
                n++;
            }
        pf_mpiserver *s = pf_mpiserver_new(&c, c.group_comm, S->ranks, n, c.L.model + (lo < 0 ? 0 : lo));
        pf_mpiserver_serve(s);
        pf_mpiserver_free(s);
        break;
    }
    case PF_ROLE_FRONT: pf_front_run(&c); break;
    case PF_ROLE_CAPTAIN: pf_captain_run(&c); break;
    case PF_ROLE_WRITER: pf_writer_run(&c); break;
    default: break;
    }
    if (c.role == PF_ROLE_MODEL) c.client_wall_s = MPI_Wtime() - t0;
    pf_prof_finish(&c.prof);
    pf_lazy_barrier(app.comm);      /* idle ranks and finished servers wait without spinning */
    pf_report(&c);
    int rc = cio_app_finish(&app, pf_kernel_json, &c);

    for (int i = 0; i < c.o.ncollections; i++) pf_collection_free(&c.coll[i]);
    cio_free(c.coll);
    if (c.group_comm != MPI_COMM_NULL) MPI_Comm_free(&c.group_comm);
    if (c.front_comm != MPI_COMM_NULL) MPI_Comm_free(&c.front_comm);
    cio_engine_free(app.engine);
    cio_app_exit(&app, rc);
}
