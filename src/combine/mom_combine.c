/* mom_combine: climio's mppnccombine.  Its default form is FRE-NCtools'
 * mppnccombine for any FMS set (fms_main.h, on netCDF-C); this file is the
 * kernel of its other two forms, which run through the engine: --mom5 (MOM5's
 * mppnccombine 2.2.5 for the sets mom_io writes, the set describing itself) and
 * climio's own form (a parameter file, --input, --output: the benchmark
 * scripts/bench-mom runs).  Both start through the kernel descriptor
 * (app/kernel.h), so --help, --print_params, the JSON (the command line as
 * typed) and the registry of the run's files are the suite's.
 *
 * Members are opened on MPI_COMM_SELF and read with cio_read_buf; the combined
 * file is created on all ranks and written collectively, each rank contributing
 * the blocks of the members it took (a contiguous range).  An inconsistent set
 * is refused before anything is written (mom_combine_set.c). */
#include "config.h"
#include "mom_combine.h"
#include "app/kernel.h"
#include "app/outputs.h"
#include "fms_main.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
    "mom_combine [-v] [-V] [-M] [-a] [-r] [-n N] [-k N] [-e N] [-h N] [-64] [-n4] [-m] [-x] [-z] [-d N] [-s] [-f]\n"
    "            [--key value ...] output.nc [input ...]\n"
    "  mppnccombine's command line: combine the set output.nc.0000, .0001, ... (or the inputs named) that mom_io's\n"
    "  iodomain or perpe pattern wrote into output.nc.  The set describes itself (NumFilesInSet, domain_decomposition,\n"
    "  climio_mom_fields); an existing output is refused unless -a.  Default: classic CDF-1 with 16 KiB header padding\n"
    "  through serial netCDF-C on one rank; -64 64-bit offset, -n4 netCDF-4 classic, -z (with -n4) deflate level 5 and\n"
    "  shuffle, -d N level N, -s no shuffle, -h N padding, -k N records per read, -r remove the inputs after success,\n"
    "  -x print the memory estimate (MB) and exit, -a write into an existing output, -f combine without the members\n"
    "  missing (their points 0, -m: missing_value; exit status 1).\n"
    "  Under mpiexec -n N (N > 1) the combine is parallel: each rank reads a range of members, all write collectively.\n"
    "  climio's own form: mom_combine [parameter file] [--input out/ocean.nc] [--output FILE]";

static const cio_param_spec combine_only[] = {
    {"input", CIO_P_STRING, NULL, "the set's name without .NNNN (default: <out>/<file>.nc)", 0, 0, 0, 0},
    {"output", CIO_P_STRING, NULL, "the combined file (default: the set's name, as mppnccombine)", 0, 0, 0, 0},
    CIO_PARAM_END,
};

/* mom_io's keys, its output folder's (default and name out) and the combine's
 * own, so the same parameter file serves both. */

/* mom_io's keys and the combine's own, so the same parameter file serves both
 * (the output folder's keys come with the descriptor's facts). */
static cio_param_spec *combine_params(void)
{
    int n2 = 0, n3 = 0;
    while (mom_params[n2].key) n2++;
    while (combine_only[n3].key) n3++;
    cio_param_spec *t = cio_calloc((size_t)(n2 + n3 + 1), sizeof *t);
    memcpy(t, mom_params, (size_t)n2 * sizeof *t);
    memcpy(t + n2, combine_only, (size_t)n3 * sizeof *t);
    return t;
}

static void combine_json(cio_json *j, void *ctx)
{
    const combine *k = ctx;
    cio_json_str(j, "input", k->prefix);
    cio_json_str(j, "output", k->output);
    cio_json_int(j, "members", k->nfiles);
    cio_json_int(j, "records", k->nrec);
    cio_json_int(j, "ranks", k->app->nprocs);
    cio_json_obj(j, "combine");
    cio_json_num(j, "seconds", k->seconds);
    cio_json_num(j, "open_seconds", k->open_s);
    cio_json_num(j, "read_seconds", k->read_s);
    cio_json_num(j, "write_seconds", k->write_s);
    cio_json_num(j, "close_seconds", k->close_s);
    cio_json_int(j, "data_bytes", k->data_bytes);
    cio_json_num(j, "bandwidth_MiBps", k->seconds > 0 ? k->data_bytes / 1048576.0 / k->seconds : 0);
    cio_json_obj_end(j);
}

/* mppnccombine's file settings, asked of the run (settings.h): each applies where
 * the user set the key to nothing else. */
static void dropin_asks(cio_app *a, const mpp_cli *cli)
{
    const cio_params *p = a->params;
    cio_kernel_asks *ask = &a->asks;
    const char *origin = "mppnccombine option or default";
    cio_format_from_name(cli->format, &ask->format);
    ask->format_origin = origin;
    ask->header_pad = cli->headerpad;
    ask->header_pad_origin = origin;
    /* mppnccombine sets no chunks (-n4: the library's), and -z asks for them with
     * nc_def_var_chunking(NC_CHUNKED, NULL): the library's chunk sizes */
    ask->chunking = "default";
    ask->chunking_origin = "default (mom_combine: mppnccombine sets no chunks)";
    const char *fmt = cio_param_str(p, "format");
    if (strcmp(fmt, "default") == 0) fmt = cli->format;
    int nc4 = strcmp(fmt, "nc4c") == 0 || strcmp(fmt, "nc4") == 0;
    if (cli->compress && nc4) {     /* nc_def_var_deflate(ncid, v, shuffle, 1, deflate) */
        ask->deflate = cli->deflate;
        ask->shuffle = cli->shuffle;
        ask->filters_origin = origin;
    } else if (cli->compress && a->rank == 0 && !cli->estimate) {
        /* MOM5's mppnccombine means -z to force netCDF-4 classic, but its test
         * `compress && (! format & NC_NETCDF4)` is never true ((!format) & NC_NETCDF4 is
         * 0), so the file stays classic and its nc_def_var_deflate calls fail unchecked */
        fprintf(stderr, "mom_combine: warning: -z%s without -n4: as in mppnccombine (whose check for this never "
                        "fires), the output is %s, not compressed; add -n4 to compress\n",
                cli->deflate != 5 ? " / -d" : "", fmt);
    }
    /* one rank: mppnccombine's own path, a serial netCDF API with its 64 KiB block size */
    const cio_driver *serial = cio_driver_with_serial_api();
    if (a->nprocs == 1 && !cio_param_str(p, "driver") && serial) {
        ask->driver = serial;
        ask->driver_origin = origin;
        ask->serial = 1;
        ask->serial_origin = origin;
        ask->size_hint = cio_param_known(p, "size_hint") && cio_param_isset(p, "size_hint") ? 0 : 65536;
    }
}

/* Before the engine: mppnccombine's refusals, and its defaults asked of the run. */
static void dropin_setup(combine *k, const mpp_cli *cli)
{
    cio_app *a = k->app;
    if (strlen(cli->output) >= sizeof k->output - 1)
        cio_die_all(a->comm, "the output file name is longer than %d characters", (int)sizeof k->output - 2);
    snprintf(k->output, sizeof k->output, "%s", cli->output);
    size_t l = strlen(k->output);
    if (l > 5 && strcmp(k->output + l - 5, ".0000") == 0) k->output[l - 5] = '\0';   /* as mppnccombine */
    snprintf(k->prefix, sizeof k->prefix, "%s", k->output);
    int exists = 0;
    if (a->rank == 0) {
        struct stat sb;
        exists = stat(k->output, &sb) == 0 ? S_ISDIR(sb.st_mode) ? 2 : 1 : 0;
    }
    MPI_Bcast(&exists, 1, MPI_INT, 0, a->comm);
    if (exists == 2)
        cio_die_all(a->comm, "the output %s is a directory: name the combined file (mppnccombine's form: mom_combine "
                             "[options] output.nc [input ...]); nothing was combined",
                    k->output);
    if (exists && !cli->estimate && !cli->append)
        cio_die_all(a->comm, "Error: output file seems to exist already! (mppnccombine's refusal: %s exists, and "
                             "mom_combine writes over a file only with -a; remove it or name another output)",
                    k->output);
    if (!exists && !cli->estimate && cli->append)
        cio_die_all(a->comm, "Error: cannot open the output netCDF file for appending! (mppnccombine's refusal: -a "
                             "writes the set into an existing file, and %s does not exist)",
                    k->output);
    /* -n and -e number the set's members (output.nc.NNNN): with the inputs named they select nothing.
     * They are mppnccombine's flags, not parameters the table can ask: said, and in not_applied, here */
    if (cli->ninputs && (cli->start != 0 || cli->end >= 0))
        cio_app_note_unused(a, "-n/-e", "-n %d / -e %d have no effect: the %d input files are named, and -n and -e "
                                        "only number the members of %s (%s.NNNN), as in mppnccombine",
                            cli->start, cli->end, cli->ninputs, k->output, k->output);
    dropin_asks(a, cli);
}

/* The engine that reads the members: one whose driver can check a classic
 * member's size against its header (PnetCDF) when built, else the run's. */

/* ---------------------------------------------------------------- the kernel's hooks */
static mpp_cli g_cli;           /* the mppnccombine command line (--mom5), read once in main */
static char g_perr[512];

/* --mom5: the suite reads the climio options among mppnccombine's (the JSON
 * keeps the command line as typed). */
static char **dropin_argv(int argc, char **argv, int *nargc)
{
    (void)argc;
    *nargc = g_cli.cargc ? g_cli.cargc : 1;
    return g_cli.cargc ? g_cli.cargv : argv;
}

static cio_format combine_setup(cio_app *a, void *ctx)
{
    combine *k = ctx;
    k->app = a;
    if (!k->dropin) return CIO_FMT_CDF2;
    if (k->perr[0]) cio_die_all(a->comm, "%s", k->perr);
    k->cli = &g_cli;
    dropin_setup(k, &g_cli);
    return CIO_FMT_CDF1;
}

/* The set: described (--mom5), found, opened and checked before anything is written. */
static void combine_prepare(cio_app *a, void *ctx)
{
    combine *k = ctx;
    cio_err e = {0};
    const cio_driver *d = a->ecfg.drv;
    if (!d->get_att || !d->stores_data)
        cio_die_all(a->comm, "%s: mom_combine reads the members' attributes, which the %s driver cannot; drivers "
                              "built: %s",
                    a->set.driver_origin, d->name, cio_driver_names());
    if (k->dropin) {
        describe_set(k, &g_cli, &e);
        if (e.msg[0]) cio_die_all(a->comm, "%s", e.msg);
    } else {
        k->in_eng = a->engine;
    }
    if (mom_config_load(&k->cfg, a->params, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    k->cfg.suffix = cio_format_suffix(a->ecfg.opts.format);
    if (!k->dropin) {
        const char *in = cio_param_str(a->params, "input"), *outp = cio_param_str(a->params, "output");
        if (in) snprintf(k->prefix, sizeof k->prefix, "%s", in);
        else mom_file_prefix(&k->cfg, k->prefix, sizeof k->prefix);
        snprintf(k->output, sizeof k->output, "%s", outp ? outp : k->prefix);
    }
    k->t_open = cio_stats_timer(&a->stats, "combine_open");
    k->t_read = cio_stats_timer(&a->stats, "combine_read");
    k->t_write = cio_stats_timer(&a->stats, "combine_write");
    k->t_close = cio_stats_timer(&a->stats, "combine_close");
    MPI_Barrier(a->comm);
    k->t0 = MPI_Wtime();
    memset(&k->first_mem, 0, sizeof k->first_mem);
    list_set(k, &k->first_mem);
    k->first_kept = open_members(k, &k->first_mem);
    check_members(k, &k->first_mem, k->first_kept);
    blocking(k);
}

static void combine_outputs(cio_app *a, void *ctx, cio_outputs *out)
{
    combine *k = ctx;
    (void)a;
    cio_outputs_add(out, k->output, "the output", NULL, 0);
}

/* The slowest rank's time of the whole combine and of each phase. */
static void phase_times(combine *k)
{
    cio_app *a = k->app;
    double dt = MPI_Wtime() - k->t0, ph[4];
    int ids[4] = {k->t_open, k->t_read, k->t_write, k->t_close};
    for (int i = 0; i < 4; i++) ph[i] = a->stats.t[ids[i]].seconds;
    MPI_Allreduce(&dt, &k->seconds, 1, MPI_DOUBLE, MPI_MAX, a->comm);
    double phmax[4];
    MPI_Allreduce(ph, phmax, 4, MPI_DOUBLE, MPI_MAX, a->comm);
    k->open_s = phmax[0];
    k->read_s = phmax[1];
    k->write_s = phmax[2];
    k->close_s = phmax[3];
    k->data_bytes = mom_data_bytes(&k->cfg, k->nrec);
}

static void combine_output(cio_app *a, void *ctx)
{
    combine *k = ctx;
    (void)a;
    combine_run(k);
    phase_times(k);
}

/* The timing line (--bench, and always in climio's own form). */
static void combine_report(cio_app *a, void *ctx)
{
    combine *k = ctx;
    int P = a->nprocs;
    if (a->rank == 0 && (!k->cli || k->cli->bench))
        printf("mom_combine: %d members of %s (%lld records, %.2f MiB) into %s on %d rank%s in %.4f s: %.2f MiB/s "
               "(open %.4f, read %.4f, write %.4f, close %.4f; slowest rank each)\n",
               k->nfiles, k->prefix, (long long)k->nrec, k->data_bytes / 1048576.0, k->output, P, P == 1 ? "" : "s",
               k->seconds, k->seconds > 0 ? k->data_bytes / 1048576.0 / k->seconds : 0, k->open_s, k->read_s,
               k->write_s, k->close_s);
}

/* -f's status, -r and -M; mppnccombine prints nothing at the end. */
static int combine_verdict(cio_app *a, void *ctx, int rc)
{
    combine *k = ctx;
    if (k->nmissing && rc == 0) {        /* -f: mppnccombine's warning and exit status */
        if (a->rank == 0) fprintf(stderr, "Warning: output file may be incomplete!\n");
        rc = 1;
    }
    if (k->cli && k->cli->remove_inputs && rc == 0)     /* -r: each rank removes the members it read */
        for (int i = 0; i < k->count; i++) {
            if (k->cli->verbose) printf("Removing \"%s\"\n", k->mem[i].path);
            if (unlink(k->mem[i].path) != 0)
                cio_warn0("-r: could not remove %s: %s", k->mem[i].path, strerror(errno));
        }
    if (k->cli && k->cli->mem_stats && a->rank == 0) {
        struct rusage ru;
        if (getrusage(RUSAGE_SELF, &ru) == 0) printf("maxrss=%ld KB (rank 0)\n", ru.ru_maxrss);
    }
    if (k->dropin && !k->cli->bench) a->finished = 0;     /* no closing lines */
    return rc;
}

static void combine_cleanup(cio_app *a, void *ctx)
{
    combine *k = ctx;
    if (k->in_eng && k->in_eng != a->engine) cio_engine_free(k->in_eng);
    for (int i = 0; i < k->count; i++) {
        cio_schema_free(k->mem[i].s);
        mom_vars_free(&k->mem[i].ids);
    }
    cio_free(k->mem);
    cio_free(k->present);
    cio_free(k->flags);
    cio_free(k->missval);
    cio_free(k->times);
    mom_gaps_free(&k->gaps);
    mom_config_free(&k->cfg);
}

int main(int argc, char **argv)
{
    static combine k;
    static cio_kernel desc = {
        .name = "mom_combine",
        .usage = usage,
        .facts = {.output_folder = &mom_output_folder},
        .no_dry_run = "it reads a set of files, which a dry run does not have",
        .no_repetitions = "it combines one set of files; run it again for another sample",
        .setup = combine_setup,
        .prepare = combine_prepare,
        .list_outputs = combine_outputs,
        .output = combine_output,
        .report = combine_report,
        .json = combine_json,
        .verdict = combine_verdict,
        .cleanup = combine_cleanup,
    };
    cio_param_spec *table = combine_params();
    int dropin = mpp_cli_is_dropin(argc, argv);
    int parsed = dropin ? mpp_cli_parse(argc, argv, table, &g_cli, g_perr, sizeof g_perr) : -1;
    if (dropin && !g_cli.mom5) {     /* the default: FRE-NCtools' mppnccombine */
#ifdef HAVE_NETCDF
        int rc = fms_dropin_main(argc, argv, &g_cli, g_perr);
        mpp_cli_free(&g_cli);
        cio_free(table);
        return rc;
#else
        fprintf(stderr, "mom_combine: error: this build has no netCDF-C (configure found none), which FRE-NCtools' "
                        "form needs; --mom5 (MOM5's mppnccombine through the engine) works without it\n");
        return 1;
#endif
    }
    if (parsed == 0 && g_cli.version) {
        printf("mom_combine (climio %s): mppnccombine 2.2.5's command line (-z, -d, -s as in its later versions)\n",
               PACKAGE_VERSION);
        return 0;
    }
    desc.params = table;
    k.dropin = dropin;
    k.perr = g_perr;
    if (dropin) {       /* no parameter file: the set describes itself; silent as mppnccombine unless --bench */
        desc.argv_rewrite = dropin_argv;
        desc.builtin_name = "<the set's own attributes>";
        desc.builtin_text = g_cli.bench ? "! no parameter file: the set describes itself\nquiet false\n"
                                        : "! no parameter file: the set describes itself\nquiet true\n";
    } else {            /* climio's own form always reports: --bench asks for nothing more */
        desc.default_file = "mom.in";
        desc.builtin_name = mom_builtin_name;
        desc.builtin_text = mom_builtin_text;
        int j = 1;
        for (int i = 1; i < argc; i++)
            if (strcmp(argv[i], "--bench") != 0) argv[j++] = argv[i];
        argc = j;
        argv[argc] = NULL;
    }
    return cio_kernel_main(&desc, &k, argc, argv);
}
