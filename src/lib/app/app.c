/* A kernel's start and end: MPI, the parameter file and command line, the
 * claimed outputs, and the exit every rank takes. */
#include "config.h"
#include "app/app.h"
#include "base/env.h"
#include "app/outputs.h"
#include "base/inputs.h"
#include "app/print_params.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <sys/stat.h>

static void usage_and_exit(cio_app *a, const char *usage)
{
    if (a->rank == 0) {
        printf("usage: %s\n\n", usage);
        printf("Options (parameter-file keys; '--key value' on the command line overrides the file):\n");
        cio_params_print_help(a->params, stdout);
        printf("\nDrivers built: %s\n", cio_driver_names());
    }
    cio_app_exit(a, 0);
}

void cio_app_exit(cio_app *a, int status)
{
    /* the last lines of every run: the page-cache note and the headline */
    if (a->finished && a->rank == 0) {
        if (a->closing_note[0]) printf("%s\n", a->closing_note);
        printf("%s\n", a->headline);
    }
    cio_free(a->driver_conf);
    cio_settings_free(&a->set);
    a->driver_conf = NULL;
    for (int i = 0; i < a->nunused; i++) {
        cio_free(a->unused[i].key);
        cio_free(a->unused[i].note);
    }
    cio_free(a->unused);
    a->unused = NULL;
    a->nunused = 0;
    fflush(stdout);
    fflush(stderr);
    cio_env_free();
    MPI_Finalize();
    exit(status);
}

static void fail_all(cio_app *a, cio_err *e)
{
    cio_die_all(a->comm, "%s", e->msg);
}

/* --json FILE must be writable: say so before the run, not after it (rank 0
 * looks, once the output folders exist: the JSON may go into one of them). */
static void check_json_path(cio_app *a)
{
    cio_err e = {0};
    const char *path = cio_param_str(a->params, "json");
    if (a->rank == 0 && path) {
        struct stat st;
        int existed = stat(path, &st) == 0;
        FILE *f = NULL;
        if (!*path) cio_seterr(&e, "%s: json expects a file name, found ''", cio_param_origin(a->params, "json"));
        else if (existed && S_ISDIR(st.st_mode))
            cio_seterr(&e, "%s: json: '%s' is a directory, expected a file name", cio_param_origin(a->params, "json"),
                       path);
        else if (!(f = fopen(path, "a")))
            cio_seterr(&e, "%s: json: cannot write '%s': %s", cio_param_origin(a->params, "json"), path,
                       strerror(errno));
        if (f) {
            fclose(f);
            if (!existed) unlink(path);
        }
    }
    if (cio_agree(a->comm, &e)) fail_all(a, &e);
}

/* "--verify maybe": a word after a bare boolean option that names no file was
 * meant as the option's value; say what the option expects (rank 0 looks). */
static void check_bare_bool_words(cio_app *a, int npos, char **pos)
{
    cio_err e = {0};
    if (a->rank == 0)
        for (int i = 0; i < npos && !e.code; i++) {
            const char *expects = NULL, *key = cio_params_bool_before(a->params, i, &expects);
            if (key && access(pos[i], F_OK) != 0)
                cio_seterr(&e, "command line: --%s expects %s, found '%s'", key, expects, pos[i]);
        }
    if (cio_agree(a->comm, &e)) fail_all(a, &e);
}

/* The parameter file's text (path, else the built-in text; a->param_file names
 * it) and its length, which a NUL inside the file makes longer than the string. */
static char *parameter_text(cio_app *a, const char *path, const char *builtin_name, const char *builtin_text,
                            const char *usage, size_t *len)
{
    cio_err e = {0};
    char *text = NULL;
    if (path) {
        /* its length counts a NUL inside, which shows as a shorter string (not a
         * second open: a FIFO is read once) */
        text = cio_read_file_bcast(path, a->comm, len, &e);
        if (!text) fail_all(a, &e);
        a->param_file = cio_strdup(path);
        if (a->rank == 0) cio_inputs_add(path, "the parameter file", CIO_INPUT_READ);
    } else if (builtin_text) {
        text = cio_strdup(builtin_text);
        *len = strlen(text);
        a->param_file = cio_strdup(builtin_name);
        a->param_file_builtin = 1;
    } else {
        cio_seterr(&e, "no parameter file given (usage: %s)", usage);
        fail_all(a, &e);
    }
    return text;
}

/* The common options, the kernel's output folder, every driver's own, the kernel's. */
static cio_params *new_params(const cio_param_spec *kernel_params, const cio_output_folder *folder)
{
    static cio_param_spec folder_rows[3];
    const cio_param_spec *tables[64];
    int nt = 0;
    tables[nt++] = cio_common_params;
    if (folder) {
        cio_output_folder_rows(folder, folder_rows);
        tables[nt++] = folder_rows;
    }
    for (int i = 0; cio_drivers[i] && nt < 62; i++)
        if (cio_drivers[i]->params) tables[nt++] = cio_drivers[i]->params;
    tables[nt++] = kernel_params;
    tables[nt] = NULL;
    return cio_params_new(tables);
}

void cio_app_init(cio_app *a, int *argc, char ***argv, const char *kernel, const char *usage,
                  const cio_param_spec *kernel_params, const char *default_file, const char *builtin_name,
                  const char *builtin_text)
{
    cio_app_init_folder(a, argc, argv, kernel, usage, kernel_params, NULL, default_file, builtin_name, builtin_text);
}

void cio_app_init_folder(cio_app *a, int *argc, char ***argv, const char *kernel, const char *usage,
                         const cio_param_spec *kernel_params, const cio_kernel_facts *facts,
                         const char *default_file, const char *builtin_name, const char *builtin_text)
{
    memset(a, 0, sizeof *a);
    cio_file_size_limit_as_error();
    MPI_Init(argc, argv);
    a->comm = MPI_COMM_WORLD;
    MPI_Comm_rank(a->comm, &a->rank);
    MPI_Comm_size(a->comm, &a->nprocs);
    cio_env_share(a->comm);     /* every rank sees rank 0's environment settings */
    a->kernel = kernel;
    a->argc = *argc;
    a->argv = *argv;
    a->t_start = MPI_Wtime();
    cio_host_loadavg(a->host.load_start);
    cio_set_progname(kernel);
    cio_stats_init(&a->stats);
    cio_stats_init(&a->rstats);
    time_t now = time(NULL);
    strftime(a->date, sizeof a->date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));

    if (facts) a->facts = *facts;
    a->asks.kernel_format = CIO_FMT_NONE;    /* the driver's, unless the kernel asks */
    a->params = new_params(kernel_params, a->facts.output_folder);
    cio_err e = {0};
    int npos = 0;
    char **pos = NULL;
    /* every rank parses the same argv, so every rank finds the same error */
    cio_app_check_same_args(a, *argc, *argv);
    if (cio_params_parse_argv(a->params, *argc, *argv, &npos, &pos, &e) != 0) fail_all(a, &e);
    if (cio_param_bool(a->params, "help")) usage_and_exit(a, usage);
    if (cio_param_bool(a->params, "version")) {
        if (a->rank == 0) printf("%s (climio %s), drivers: %s\n", kernel, PACKAGE_VERSION, cio_driver_names());
        cio_app_exit(a, 0);
    }
    cio_params_allow_unknown(a->params, cio_param_bool(a->params, "allow_unknown_keys"));
    check_bare_bool_words(a, npos, pos);
    if (npos > 1) {
        cio_seterr(&e, "command line: expected one parameter file, found '%s' and '%s'", pos[0], pos[1]);
        fail_all(a, &e);
    }
    const char *path = npos ? pos[0] : NULL;
    a->param_file_given = npos > 0;
    if (!path && default_file) {
        int exists = a->rank == 0 ? access(default_file, F_OK) == 0 : 0;
        MPI_Bcast(&exists, 1, MPI_INT, 0, a->comm);
        if (exists) path = default_file;
    }
    size_t len = 0;
    char *text = parameter_text(a, path, builtin_name, builtin_text, usage, &len);
    int rc = path ? cio_params_parse_text(a->params, text, len, a->param_file, &e)
                  : cio_params_parse_builtin(a->params, text, a->param_file, &e);
    if (rc != 0) fail_all(a, &e);
    cio_free(text);
    if (cio_params_apply_cmdline(a->params, &e) != 0) fail_all(a, &e);
    cio_app_note_repeated_args(a);
    cio_free(pos);
    if (cio_param_bool(a->params, "print_params")) {
        if (a->rank == 0) cio_print_params(stdout, kernel, a->param_file, a->params, a->param_file_given, &a->facts);
        cio_app_exit(a, 0);
    }
    if (a->facts.asks) a->facts.asks(a->params, &a->asks);   /* as --print_params asked them */
}

void cio_app_claim_json(const cio_app *a, cio_outputs *o)
{
    const char *json = cio_param_str(a->params, "json");
    if (json) {
        char src[700];
        snprintf(src, sizeof src, "json (%s)", cio_param_origin(a->params, "json"));
        cio_outputs_add(o, json, src, "the results", 0);
    }
}

/* --force: 0, 1, or 2 when given twice on the command line (take a lock whose
 * owner ran on another host). */
int cio_app_force_level(const cio_app *a)
{
    if (!cio_param_bool(a->params, "force")) return 0;
    int n = 0;
    for (int i = 1; i < a->argc; i++)
        if (strcmp(a->argv[i], "--force") == 0 || strcmp(a->argv[i], "-force") == 0) n++;
    return n >= 2 ? 2 : 1;
}

void cio_app_claim_outputs(cio_app *a, cio_outputs *o)
{
    cio_err e = {0};
    check_json_path(a);
    if (a->rank == 0) {
        int verify_only = cio_param_bool(a->params, "verify_only");
        if (verify_only) {   /* nothing but the JSON is written */
            cio_outputs_free(o);
            o = cio_outputs_new();
        }
        cio_app_claim_json(a, o);
        if (cio_outputs_check(o, &e) == 0 && !verify_only && a->ecfg.drv && a->ecfg.drv->stores_data)
            cio_outputs_lock(o, a->kernel, cio_app_force_level(a), &e);
    }
    cio_outputs_free(o);
    if (cio_agree(a->comm, &e)) fail_all(a, &e);
}
