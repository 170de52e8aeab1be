/* pfio_io options: MAPL's command line (fargparse CLI) and the workload of
 * the PFIO demo, as suite parameters (a parameter file or --key value). */
#include "config.h"
#include "app/settings.h"
#include "base/names.h"
#include "pfio.h"
#include "base/util.h"

#include <ctype.h>
#include <string.h>

const cio_output_folder pf_output_folder = {.def = "out"};

const cio_param_spec pf_params[] = {
    /* pfio_main.c picks the netcdf driver, with nc_serial true, when none is given */
    {"driver", CIO_P_STRING, NULL,
     "I/O driver, one of those built (listed below) [default: netcdf when built, as MAPL writes netCDF-4, with "
     "nc_serial true (PFIO's writers use the serial API); else the first]",
     0, 0, 0, CIO_PF_HELP_DEFAULT},
    /* pfio_main.c sets chunking default (MAPL's writers) when the netcdf driver runs and it is unset:
     * the suite's default stays the key's value, the help says what runs */
    {"chunking", CIO_P_STRING, "auto",
     "netcdf/hdf5: auto | contiguous | default (netCDF-C's own chunks) | comma-separated chunk sizes [default: "
     "default with the netcdf driver (pfio_io's, as MAPL's writers set no chunks), else auto]",
     0, 0, 0, CIO_PF_HELP_DEFAULT},
    /* MAPL's output-server options */
    {"npes_model", CIO_P_INT, "-1", "ranks of the model (the clients); -1: every rank", 0, -1, 1e9, 0},
    {"npes_output_server", CIO_P_STRING, "0",
     "ranks per output server, a list ('--npes_output_server 4 4' on the command line, '4,4' in a file): one "
     "independent server per entry; 0: no server ranks (the simple server on the model)", 0, 0, 0, 0},
    {"nodes_output_server", CIO_P_STRING, "0", "nodes per output server, a list like npes_output_server", 0, 0, 0, 0},
    {"oserver_type", CIO_P_CHOICE, "single",
     "output server type: single (MpiServer), multigroup (frontend + captain and writers), multicomm (frontend + "
     "writers fed through RMA windows), multilayer (MpiServer forwarding to writer processes: a captain and soldiers "
     "outside the server)", "single|multigroup|multicomm|multilayer", 0, 0, 0},
    {"npes_backend_pernode", CIO_P_INT, "0", "multigroup: backend ranks per server node (1 captain + writers); multicomm: "
     "writers per server node; multilayer: writer processes per server (1 captain + soldiers), as MAPL passes it to "
     "MPI_Comm_spawn", 0, 0, 1e6, 0},
    {"multilayer_backend", CIO_P_CHOICE, "spawn",
     "multilayer: where the writer processes come from: spawn (MPI_Comm_spawn of pfio_io at start-up, as MAPL spawns "
     "pfio_writer.x) or world (the job's last npes_backend_pernode x servers ranks; start that many more)",
     "spawn|world", 0, 0, 0},
    {"one_node_output", CIO_P_BOOL, "false", "make every node of --nodes_output_server its own one-node server", 0, 0,
     0, 0},
    PF_PLAIN_PARAMS(CIO_PLAIN_ROW)
    {"compress_nodes", CIO_P_BOOL, "false", "pack the model and servers onto nodes without node isolation", 0, 0, 0, 0},
    {"isolate_nodes", CIO_P_BOOL, "true", "start each group on a new node (the old spelling of not --compress_nodes)",
     0, 0, 0, 0},
    {"with_io_profiler", CIO_P_BOOL, "false", "print PFIO's profiler report (client and server timers)", 0, 0, 0, 0},
    {"profiler_format", CIO_P_CHOICE, "mapl",
     "layout of the profiler report: current MAPL's (AbstractServer%report_profile: 'Final io_server profile', "
     "times f10.2) or the PFIO wiki's of 2021 ('Final profile', times f9.6)", "mapl|wiki2021", 0, 0, 0},
    {"cores_per_node", CIO_P_INT, "0",
     "emulate nodes of this many ranks (splitting each real node), to try the layout rules on one machine; 0: real "
     "nodes", 0, 0, 1e9, 0},
    /* the workload (pfio_MAPL_demo) */
    {"im_world", CIO_P_INT, "360", "longitudes", 0, 1, 1e9, 0},
    {"jm_world", CIO_P_INT, "181", "latitudes", 0, 1, 1e9, 0},
    {"km_world", CIO_P_INT, "72", "levels of the 3-D variables", 0, 1, 1e6, 0},
    {"variables", CIO_P_STRING, "temperature:3d,tracer:2d", "variables of each collection, name:3d or name:2d", 0, 0,
     0, 0},
    {"var_type", CIO_P_CHOICE, "float", "type of the variables", "float|double", 0, 0, 0},
    {"collections", CIO_P_INT, "1", "history collections, each with its own files", 0, 1, 1000, 0},
    {"num_steps", CIO_P_INT, "18", "model steps; every step stages one record of every variable", 0, 1, 1e7, 0},
    {"num_time_records", CIO_P_INT, "6", "records per file (a new file every this many steps)", 0, 1, 1e7, 0},
    {"done_every", CIO_P_INT, "0",
     "steps per write phase (done_collective_stage); 0: num_time_records, one phase per file as the demo", 0, 0, 1e7,
     0},
    {"compute_kind", CIO_P_CHOICE, "busy", "how the model computes: busy work, sleep, or both (half each)",
     "busy|sleep|both", 0, 0, 0},
    {"file_prefix", CIO_P_STRING, "Nsample_pfio_file", "file names: <prefix>[_c<collection>]_Day<n>", 0, 0, 0, CIO_PF_NONEMPTY},
    {"server_poll_us", CIO_P_DOUBLE, "-1",
     "sleep up to this many microseconds between tests while a rank waits for a message, so waiting ranks leave "
     "the cores to working ones; 0: blocking MPI calls, as MAPL; -1: 200 on nodes with more ranks than cores, "
     "else 0", 0, -1, 1e6, 0},
    {"mpiserver_transfer", CIO_P_CHOICE, "auto",
     "single servers: blocks to the writer by RMA windows (PFIO's way) or messages; auto: messages only where "
     "Open MPI 4.1 could mix up two servers' windows (several single servers on one node)", "auto|rma|messages", 0,
     0, 0},
    {"front_packing", CIO_P_CHOICE, "mapl",
     "multigroup: how a frontend rank packs its blocks for the writer: mapl (as MAPL's ForwardDataAndMessage: "
     "every block appended by array concatenation, which copies the pack so far twice, then serialized by two "
     "more copies, and copied once more by the writer) or once (every block copied once into a pack sized "
     "beforehand)", "mapl|once", 0, 0, 0},
    {"time_values", CIO_P_BOOL, "true",
     "write the time coordinate with each record, as MAPL's HISTORY does; false: leave it unwritten, as "
     "pfio_MAPL_demo does (its files then match the demo's byte for byte in size, but no client can decode their "
     "times)", 0, 0, 0, 0},
    {"writer_log", CIO_P_BOOL, "true", "multigroup writers print PFIO's 'Writing time ...' line per collection written, as MAPL's do", 0, 0, 0, 0},
    /* the common options with this kernel's defaults: one process writes a file, serially, as MAPL does */
    {"iotype", CIO_P_CHOICE, "blocking_independent", "I/O mode of the writers (each file has one writer)",
     CIO_MODE_CHOICES, 0, 0, 0},
    CIO_PARAM_END,
};

static int is_list_key(const char *arg)
{
    while (*arg == '-') arg++;
    char key[64];
    size_t n = strcspn(arg, "=");
    if (n >= sizeof key || arg[n] == '=') return 0;
    for (size_t i = 0; i < n; i++) key[i] = arg[i] == '-' ? '_' : (char)tolower((unsigned char)arg[i]);
    key[n] = '\0';
    return strcmp(key, "npes_output_server") == 0 || strcmp(key, "nodes_output_server") == 0;
}

static int is_uint(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return 0;
    return 1;
}

char **pf_argv_rewrite(int argc, char **argv, int *new_argc)
{
    char **out = cio_calloc((size_t)argc + 1, sizeof *out);
    int n = 0;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i];
        /* an en dash (U+2013) copied from the wiki's command lines */
        if (i > 0 && (unsigned char)a[0] == 0xE2 && (unsigned char)a[1] == 0x80 && (unsigned char)a[2] == 0x93) {
            char *fixed = cio_malloc(strlen(a) + 2);
            sprintf(fixed, "--%s", a + 3);
            a = fixed;
        }
        if (i > 0 && a[0] == '-' && is_list_key(a) && i + 1 < argc && is_uint(argv[i + 1])) {
            size_t len = strlen(a) + 2;
            int j = i + 1;
            for (; j < argc && is_uint(argv[j]); j++) len += strlen(argv[j]) + 1;
            char *joined = cio_malloc(len);
            strcpy(joined, a);
            strcat(joined, "=");
            for (int k = i + 1; k < j; k++) {
                if (k > i + 1) strcat(joined, ",");
                strcat(joined, argv[k]);
            }
            if (a != argv[i]) cio_free(a);   /* the en-dash copy, now joined */
            out[n++] = joined;
            i = j - 1;
            continue;
        }
        out[n++] = a;
    }
    *new_argc = n;
    return out;
}

static int parse_int_list(const char *s, int **vals, int *n, cio_err *e, const char *what);

int pf_parse_int_list(const char *s, int **vals, int *n, cio_err *e, const char *what)
{
    if (parse_int_list(s, vals, n, e, what) == 0) return 0;
    cio_free(*vals);
    *vals = NULL;
    *n = 0;
    return -1;
}

static int parse_int_list(const char *s, int **vals, int *n, cio_err *e, const char *what)
{
    *vals = NULL;
    *n = 0;
    const char *p = s;
    while (isspace((unsigned char)*p)) p++;
    while (*p) {
        if (*p == ',')
            return cio_seterr(e, "%s: expected a list of non-negative integers (like '2 3 4' or '2,3,4'), found an "
                                 "empty item in '%s'", what, s);
        const char *q = p;
        while (*q && *q != ',' && !isspace((unsigned char)*q)) q++;
        char tok[32];
        int64_t v;
        if ((size_t)(q - p) >= sizeof tok) return cio_seterr(e, "%s: '%s' is not a list of integers", what, s);
        memcpy(tok, p, (size_t)(q - p));
        tok[q - p] = '\0';
        if (cio_parse_int(tok, &v) != 0 || v < 0 || v > 1000000)
            return cio_seterr(e, "%s: expected a list of non-negative integers (like '2 3 4' or '2,3,4'), found '%s'",
                              what, s);
        *vals = cio_realloc(*vals, (size_t)(*n + 1) * sizeof **vals);
        (*vals)[(*n)++] = (int)v;
        p = q;
        while (isspace((unsigned char)*p)) p++;
        if (*p == ',') {    /* one comma between two items */
            p++;
            while (isspace((unsigned char)*p)) p++;
            if (!*p)
                return cio_seterr(e, "%s: expected a list of non-negative integers (like '2 3 4' or '2,3,4'), found "
                                     "an empty item in '%s'", what, s);
        }
    }
    if (*n == 0) return cio_seterr(e, "%s: expected a list of non-negative integers, found '%s'", what, s);
    return 0;
}

static int parse_vars(pf_opts *o, const char *s, const char *where, cio_err *e)
{
    o->nvars = 0;
    o->vars = NULL;
    const char *p = s;
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *q = p;
        while (*q && *q != ',' && !isspace((unsigned char)*q)) q++;
        char tok[PF_NAME_LEN + 8];
        if ((size_t)(q - p) >= sizeof tok) return cio_seterr(e, "%s: variable entry too long in '%s'", where, s);
        memcpy(tok, p, (size_t)(q - p));
        tok[q - p] = '\0';
        p = q;
        char *colon = strchr(tok, ':');
        int is3d = 1;
        if (colon) {
            *colon = '\0';
            if (cio_strcaseeq(colon + 1, "3d")) is3d = 1;
            else if (cio_strcaseeq(colon + 1, "2d")) is3d = 0;
            else return cio_seterr(e, "%s: variable '%s': expected ':3d' or ':2d', found ':%s'", where, tok, colon + 1);
        }
        if (strlen(tok) >= PF_NAME_LEN)
            return cio_seterr(e, "%s: variable name '%s' is longer than %d characters", where, tok, PF_NAME_LEN - 1);
        if (!tok[0] || !(isalpha((unsigned char)tok[0]) || tok[0] == '_'))
            return cio_seterr(e, "%s: expected variable names like 'temperature:3d,tracer:2d', found '%s'", where, s);
        for (char *c = tok; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '_')
                return cio_seterr(e, "%s: variable name '%s' may hold only letters, digits and '_'", where, tok);
        if (!strcmp(tok, "lon") || !strcmp(tok, "lat") || !strcmp(tok, "lev") || !strcmp(tok, "time"))
            return cio_seterr(e, "%s: '%s' is a coordinate of every file; choose another variable name", where, tok);
        for (int i = 0; i < o->nvars; i++)
            if (strcmp(o->vars[i].name, tok) == 0) return cio_seterr(e, "%s: variable '%s' given twice", where, tok);
        o->vars = cio_realloc(o->vars, (size_t)(o->nvars + 1) * sizeof *o->vars);
        memcpy(o->vars[o->nvars].name, tok, strlen(tok) + 1);
        o->vars[o->nvars].is3d = is3d;
        o->nvars++;
    }
    if (o->nvars == 0) return cio_seterr(e, "%s: no variables given", where);
    return 0;
}

void pf_opts_free(pf_opts *o)
{
    cio_free(o->server_npes);
    cio_free(o->server_nodes);
    cio_free(o->vars);
    memset(o, 0, sizeof *o);
}

static int parse_opts(pf_opts *o, cio_params *p, cio_err *e, int **npes_, int **nodes_);

/* Every rank runs this on the same input, so every rank finds the same error. */
static void load_plain(pf_opts *cfg, const cio_params *prm) { PF_PLAIN_PARAMS(CIO_PLAIN_LOAD) }

int pf_opts_parse(pf_opts *o, cio_params *p, cio_err *e)
{
    int *npes = NULL, *nodes = NULL;
    memset(o, 0, sizeof *o);
    load_plain(o, p);
    int rc = parse_opts(o, p, e, &npes, &nodes);
    cio_free(npes);
    cio_free(nodes);
    if (rc != 0) pf_opts_free(o);
    return rc;
}

/* The output servers: their sizes in ranks or in nodes (npes_output_server,
 * nodes_output_server, one_node_output). */
static int parse_servers(pf_opts *o, cio_params *p, cio_err *e, int **npes_, int **nodes_)
{
    o->npes_model = (int)cio_param_int(p, "npes_model");
    int *npes = NULL, *nodes = NULL, nn = 0, nd = 0;
    char where[700];
    snprintf(where, sizeof where, "%s: npes_output_server", cio_param_origin(p, "npes_output_server"));
    if (pf_parse_int_list(cio_param_str(p, "npes_output_server"), &npes, &nn, e, where)) return -1;
    *npes_ = npes;
    snprintf(where, sizeof where, "%s: nodes_output_server", cio_param_origin(p, "nodes_output_server"));
    if (pf_parse_int_list(cio_param_str(p, "nodes_output_server"), &nodes, &nd, e, where)) return -1;
    *nodes_ = nodes;
    int any_npes = 0, any_nodes = 0;
    for (int i = 0; i < nn; i++) any_npes |= npes[i] > 0;
    for (int i = 0; i < nd; i++) any_nodes |= nodes[i] > 0;
    if (any_npes && any_nodes)
        return cio_seterr(e, "give either --npes_output_server or --nodes_output_server, not both (%s and %s)",
                          cio_param_str(p, "npes_output_server"), cio_param_str(p, "nodes_output_server"));
    if ((any_npes && nn > 1) || (any_nodes && nd > 1)) {
        int *l = any_npes ? npes : nodes, n = any_npes ? nn : nd;
        for (int i = 0; i < n; i++)
            if (l[i] == 0)
                return cio_seterr(e, "--%s %s: every server of the list needs at least one %s",
                                  any_npes ? "npes_output_server" : "nodes_output_server",
                                  cio_param_str(p, any_npes ? "npes_output_server" : "nodes_output_server"),
                                  any_npes ? "rank" : "node");
    }
    if (cio_param_bool(p, "one_node_output")) {
        if (any_npes) return cio_seterr(e, "--one_node_output splits --nodes_output_server into one-node servers; "
                                           "it cannot be used with --npes_output_server");
        if (!any_nodes) return cio_seterr(e, "--one_node_output needs --nodes_output_server (the nodes to split)");
        int total = 0;
        for (int i = 0; i < nd; i++) total += nodes[i];
        nodes = cio_realloc(nodes, (size_t)total * sizeof *nodes);
        *nodes_ = nodes;
        for (int i = 0; i < total; i++) nodes[i] = 1;
        nd = total;
    }
    o->by_nodes = any_nodes;
    o->nserver = any_npes ? nn : any_nodes ? nd : 0;
    o->server_npes = cio_calloc((size_t)(o->nserver ? o->nserver : 1), sizeof(int));
    o->server_nodes = cio_calloc((size_t)(o->nserver ? o->nserver : 1), sizeof(int));
    for (int i = 0; i < o->nserver; i++) {
        if (any_npes) o->server_npes[i] = npes[i];
        else o->server_nodes[i] = nodes[i];
    }
    return 0;
}

/* The server type and its backend ranks (oserver_type, npes_backend_pernode). */
static int parse_server_type(pf_opts *o, cio_params *p, cio_err *e)
{
    o->multilayer = strcmp(cio_param_str(p, "oserver_type"), "multilayer") == 0;
    o->ml_spawn = strcmp(cio_param_str(p, "multilayer_backend"), "spawn") == 0;
    o->multigroup = strcmp(cio_param_str(p, "oserver_type"), "multigroup") == 0;
    o->multicomm = strcmp(cio_param_str(p, "oserver_type"), "multicomm") == 0;
    o->split = o->multigroup || o->multicomm;
    o->npes_backend_pernode = (int)cio_param_int(p, "npes_backend_pernode");
    if (o->multicomm && o->npes_backend_pernode < 1)
        /* MAPL's ServerManager: "needs at least one backend for multicomm server" */
        return cio_seterr(e, "needs at least one backend for multicomm server: --npes_backend_pernode %d (the writers "
                             "of a multicomm server are its backend ranks)", o->npes_backend_pernode);
    if (o->multilayer && o->npes_backend_pernode < 2)
        /* MAPL's ServerManager ("captain-soldier need at lease two beckend") and MultiLayerServer
         * ("nwriters should be >=2. pfio_writer.x has captain-soldier structure") */
        return cio_seterr(e, "captain-soldier needs at least two backend processes: --npes_backend_pernode %d (a "
                             "multilayer server starts that many writer processes, pfio_writer's captain and "
                             "soldiers; the captain only schedules)", o->npes_backend_pernode);
    if (o->multigroup) {
        /* MAPL's ServerManager refuses this before anything else */
        int b = o->npes_backend_pernode;
        for (int i = 0; i < (o->nserver ? o->nserver : 1); i++) {
            int backend = o->by_nodes ? o->server_nodes[i] * b : b;
            if (backend < 2)
                return cio_seterr(e, "captain-soldier needs at least two backend ranks: --npes_backend_pernode %d%s gives "
                                     "%d (the captain only schedules; at least one more rank must write)",
                                  b, o->by_nodes ? " on the server's nodes" : "", backend);
        }
    }
    return 0;
}

/* The clients, the placement of servers on nodes and the profiler. */
static int parse_placement(pf_opts *o, cio_params *p, cio_err *e)
{
    int compress = cio_param_bool(p, "compress_nodes"), isolate = cio_param_bool(p, "isolate_nodes");
    if (compress && cio_param_isset(p, "isolate_nodes") && isolate)
        return cio_seterr(e, "--compress_nodes and --isolate_nodes true contradict each other");
    o->isolate = isolate && !compress;
    if (o->by_nodes && !o->isolate)
        return cio_seterr(e, "a server sized by nodes takes whole nodes and needs node isolation: drop "
                             "--compress_nodes (or --isolate_nodes false), or size the server with --npes_output_server");
    o->with_profiler = cio_param_bool(p, "with_io_profiler");
    o->prof_style = strcmp(cio_param_str(p, "profiler_format"), "wiki2021") == 0 ? PF_PROF_WIKI2021 : PF_PROF_MAPL;
    o->cores_per_node = (int)cio_param_int(p, "cores_per_node");
    return 0;
}

/* The model: the grid, its variables, collections, steps and output files. */
static int parse_model(pf_opts *o, cio_params *p, cio_err *e)
{
    char where[700];
    o->im = cio_param_int(p, "im_world");
    o->jm = cio_param_int(p, "jm_world");
    o->km = cio_param_int(p, "km_world");
    snprintf(where, sizeof where, "%s: variables", cio_param_origin(p, "variables"));
    if (parse_vars(o, cio_param_str(p, "variables"), where, e)) return -1;
    o->type = strcmp(cio_param_str(p, "var_type"), "double") == 0 ? CIO_DOUBLE : CIO_FLOAT;
    cio_settings set = {0};
    if (cio_settings_data(p, &set, e) != 0) return -1;
    o->data = set.data;
    o->ncollections = (int)cio_param_int(p, "collections");
    o->num_steps = (int)cio_param_int(p, "num_steps");
    o->num_time_records = (int)cio_param_int(p, "num_time_records");
    o->done_every = (int)cio_param_int(p, "done_every");
    if (o->done_every == 0) o->done_every = o->num_time_records;
    if (o->num_time_records % o->done_every != 0)
        return cio_seterr(e, "%s: done_every %d does not divide num_time_records %d: a write phase must not span two "
                             "files", cio_param_origin(p, "done_every"), o->done_every, o->num_time_records);
    int64_t per_phase = (int64_t)o->done_every * o->nvars * o->ncollections;
    if (per_phase > PF_REQ_LAST - PF_REQ_FIRST + 1)
        return cio_seterr(e, "a write phase stages %lld requests (done_every %d x %d variables x %d collections); "
                             "PFIO's collective request ids allow %d", (long long)per_phase, o->done_every, o->nvars,
                          o->ncollections, PF_REQ_LAST - PF_REQ_FIRST + 1);
    o->nfiles = (o->num_steps + o->num_time_records - 1) / o->num_time_records;
    o->nphases = (o->num_steps + o->done_every - 1) / o->done_every;
    const char *ck = cio_param_str(p, "compute_kind");
    o->compute_kind = !strcmp(ck, "sleep") ? PF_COMPUTE_SLEEP : !strcmp(ck, "both") ? PF_COMPUTE_BOTH : PF_COMPUTE_BUSY;
    char origin[600];
    if (cio_output_folder_resolve(p, &pf_output_folder, &o->output_dir, origin, sizeof origin, e) != 0) return -1;
    o->file_prefix = cio_param_str(p, "file_prefix");
    char what[600];
    snprintf(what, sizeof what, "%s: file_prefix", cio_param_origin(p, "file_prefix"));
    if (cio_check_name(o->file_prefix, CIO_NAME_FILE, what, e) != 0) return -1;
    o->file_ext = ".nc4";
    o->quiet = cio_param_bool(p, "quiet");
    o->writer_log = cio_param_bool(p, "writer_log") && !o->quiet;
    o->time_values = cio_param_bool(p, "time_values");
    o->front_concat = !strcmp(cio_param_str(p, "front_packing"), "mapl");
    o->poll_us = cio_param_double(p, "server_poll_us");
    const char *tr = cio_param_str(p, "mpiserver_transfer");
    o->transfer = !strcmp(tr, "rma") ? 1 : !strcmp(tr, "messages") ? 2 : 0;
    return 0;
}

static int parse_opts(pf_opts *o, cio_params *p, cio_err *e, int **npes_, int **nodes_)
{
    if (parse_servers(o, p, e, npes_, nodes_) != 0 || parse_server_type(o, p, e) != 0 ||
        parse_placement(o, p, e) != 0 || parse_model(o, p, e) != 0)
        return -1;
    return 0;
}

void pf_opts_read(pf_opts *o, cio_params *p, MPI_Comm comm)
{
    cio_err e = {0};
    if (pf_opts_parse(o, p, &e) != 0) cio_die_all(comm, "%s", e.msg);
}
