/* mom_combine's mppnccombine command line, as FRE-NCtools' mppnccombine (2.2.8)
 * and MOM5's (2.2.5, with its -z/-d/-s compression options) read it:
 *
 *   mom_combine [-v] [-vv] [-V] [-M] [-a] [-r] [-n N] [-k N] [-e N] [-h N] [-64] [-n4]
 *               [-m] [-x] [-z] [-d N] [-s] [-f] [--mom5] [--bench] [--key value ...]
 *               output.nc [input ...]
 *
 * Options come before the output file, as mppnccombine reads them; climio's own
 * `--key value` options (driver, json, quiet, verify, ...) may stand among them.
 * Which `--key` takes the next word as its value comes from the parameter tables
 * (a boolean takes it only when it is a boolean word).  What the options mean
 * (FRE-NCtools' by default, MOM5's with --mom5) is the callers' business. */
#include "config.h"
#include "mom_combine_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "app/app.h"
#include "drivers/driver.h"

static int is_bool_word(const char *s)
{
    static const char *const w[] = {"true", "false", "yes", "no", "on", "off", "1", "0", NULL};
    for (int i = 0; w[i]; i++)
        if (strcasecmp(s, w[i]) == 0) return 1;
    return 0;
}

/* The type of --key in the tables every kernel reads, or -1 when unknown. */
static int key_type(const cio_param_spec *kernel_table, const char *key)
{
    const cio_param_spec *tables[64];
    int nt = 0;
    tables[nt++] = cio_common_params;
    for (int i = 0; cio_drivers[i] && nt < 62; i++)
        if (cio_drivers[i]->params) tables[nt++] = cio_drivers[i]->params;
    tables[nt++] = kernel_table;
    tables[nt] = NULL;
    for (int t = 0; tables[t]; t++)
        for (int i = 0; tables[t][i].key; i++) {
            /* keys match with '-' and '_' alike, as the parser does */
            const char *a = tables[t][i].key, *b = key;
            while (*a && *b && (*a == *b || ((*a == '_' || *a == '-') && (*b == '_' || *b == '-')))) a++, b++;
            if (!*a && !*b) return (int)tables[t][i].type;
        }
    return -1;
}

static int int_arg(int argc, char **argv, int *a, const char *opt, long lo, long hi, long *out, char *err, size_t n)
{
    if (*a + 1 >= argc) {
        snprintf(err, n, "option %s expects a number", opt);
        return -1;
    }
    char *end;
    const char *s = argv[++*a];
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) {
        snprintf(err, n, "option %s expects a whole number from %ld to %ld, found '%s'", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* An existing file that is not netCDF (classic or HDF5 magic): a parameter file;
 * but not an empty one, nor one named as netCDF outputs are (x.nc, x.tile1.nc.*):
 * mppnccombine refuses those as an existing output. */
static int is_parameter_file(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && (S_ISDIR(sb.st_mode) || sb.st_size == 0)) return 0;
    size_t l = strlen(path);
    if ((l > 3 && strcmp(path + l - 3, ".nc") == 0) || strstr(path, ".nc.")) return 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    unsigned char m[4] = {0};
    size_t n = fread(m, 1, 4, fp);
    fclose(fp);
    return !(n >= 3 && memcmp(m, "CDF", 3) == 0) && !(n == 4 && memcmp(m, "\x89HDF", 4) == 0);
}

int mpp_cli_is_dropin(int argc, char **argv)
{
    /* climio's own form names the set with --input / --output / --out, or gives a
     * parameter file (mppnccombine's output never exists beforehand); only it
     * answers --print_params */
    for (int a = 1; a < argc; a++) {
        if (strncmp(argv[a], "--input", 7) == 0 || strncmp(argv[a], "--output", 8) == 0 ||
            strcmp(argv[a], "--out") == 0 || strncmp(argv[a], "--out=", 6) == 0 ||
            strncmp(argv[a], "--print_params", 14) == 0)
            return 0;
        if (argv[a][0] != '-') return !is_parameter_file(argv[a]);
        if (!strcmp(argv[a], "--mom5") || !strcmp(argv[a], "--bench")) continue;     /* take no value */
        if (strncmp(argv[a], "--", 2) == 0 && !strchr(argv[a], '=') && a + 1 < argc && argv[a + 1][0] != '-') a++;
    }
    return 1;
}

/* One of mppnccombine's options at argv[*a] (its value, if any, taken):
 * 0, or -1 with the reason in err. */
static int parse_option(int argc, char **argv, int *a, mpp_cli *o, char *err, size_t n)
{
    const char *s = argv[*a];
    long v;
    if (!strcmp(s, "-v")) o->verbose = 1;
    else if (!strcmp(s, "-vv")) o->verbose = 2;
    else if (!strcmp(s, "-V")) o->version = 1;
    else if (!strcmp(s, "-M")) o->mem_stats = 1;
    else if (!strcmp(s, "-x")) o->estimate = 1;
    else if (!strcmp(s, "-a")) o->append = 1;
    else if (!strcmp(s, "-r")) o->remove_inputs = 1;
    else if (!strcmp(s, "-f")) o->force = 1;
    else if (!strcmp(s, "-m")) o->missing = 1;
    else if (!strcmp(s, "-s")) o->shuffle = 0, o->s_given = 1;    /* MOM5: "Toggle OFF shuffle ..." */
    else if (!strcmp(s, "-64") || !strcmp(s, "-n4")) {
        /* mppnccombine takes the last of the two in silence: the output's format is refused rather than guessed */
        const char *format = s[1] == '6' ? "cdf2" : "nc4c";
        if (strcmp(o->format, "cdf1") != 0 && strcmp(o->format, format) != 0) {
            snprintf(err, n, "-64 and -n4 ask for two output formats (64-bit offset, netCDF-4 classic model): give one");
            return -1;
        }
        o->format = format;
    }
    else if (!strcmp(s, "-z")) o->compress = 1;          /* "Enable netCDF4 compression" */
    else if (!strcmp(s, "-n")) {
        if (int_arg(argc, argv, a, s, 0, 999999, &v, err, n)) return -1;
        o->start = (int)v;
    } else if (!strcmp(s, "-e")) {
        if (int_arg(argc, argv, a, s, 0, 999999, &v, err, n)) return -1;
        o->end = (int)v;
    } else if (!strcmp(s, "-k")) {
        if (int_arg(argc, argv, a, s, 0, 1000000000, &v, err, n)) return -1;
        o->block = (int)v;
    } else if (!strcmp(s, "-h")) {
        if (int_arg(argc, argv, a, s, 0, 1073741824, &v, err, n)) return -1;
        o->headerpad = v;
        o->h_given = 1;
    } else if (!strcmp(s, "-d")) {     /* a level implies -z */
        if (int_arg(argc, argv, a, s, -999999999L, 999999999L, &v, err, n)) return -1;
        if (v < 0 || v > 9) {       /* mppnccombine: "Illegal deflate level %d" */
            snprintf(err, n, "Illegal deflate level %ld (option -d: 0 to 9, mppnccombine's MIN_DEFLATE_LEVEL to "
                             "MAX_DEFLATE_LEVEL)", v);
            return -1;
        }
        o->deflate = (int)v;
        o->compress = 1;
        o->d_given = 1;
    } else {
        snprintf(err, n, "Illegal option %s (mppnccombine's options: -v -vv -V -M -a -r -n # -k # -e # -h # -64 -n4 "
                         "-m -x -z -d # -s -f)", s);
        return -1;
    }
    return 0;
}

int mpp_cli_parse(int argc, char **argv, const cio_param_spec *kernel_table, mpp_cli *o, char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    o->start = 0;
    o->end = -1;
    o->block = 1;
    o->headerpad = 16384;
    o->format = "cdf1";             /* mppnccombine: NC_NOCLOBBER, the classic format */
    o->deflate = 5;                 /* DEFAULT_DEFLATE_LEVEL */
    o->shuffle = 1;                 /* DEFAULT_SHUFFLE */
    o->cargv = calloc((size_t)argc + 1, sizeof *o->cargv);
    o->inputs = calloc((size_t)argc + 1, sizeof *o->inputs);
    if (!o->cargv || !o->inputs) {
        snprintf(err, n, "out of memory parsing the command line");
        return -1;
    }
    o->cargv[o->cargc++] = argv[0];
    int a = 1;
    for (; a < argc; a++) {
        const char *s = argv[a];
        if (!strcmp(s, "--mom5")) {
            o->mom5 = 1;
            continue;
        }
        if (!strcmp(s, "--bench")) {
            o->bench = 1;
            continue;
        }
        if (!strcmp(s, "--help") || !strcmp(s, "-help")) o->help = 1;
        if (!strcmp(s, "--json") && a + 1 < argc) o->json = argv[a + 1];
        if (!strncmp(s, "--json=", 7)) o->json = s + 7;
        if (strncmp(s, "--", 2) == 0 && s[2]) {     /* climio's own option */
            o->cargv[o->cargc++] = argv[a];
            if (strchr(s, '=')) continue;
            int t = key_type(kernel_table, s + 2);
            if (a + 1 < argc && (t != CIO_P_BOOL || is_bool_word(argv[a + 1]))) o->cargv[o->cargc++] = argv[++a];
            continue;
        }
        if (s[0] != '-' || !s[1]) break;            /* the output file */
        if (parse_option(argc, argv, &a, o, err, n) != 0) return -1;
    }
    if (a >= argc) {
        if (o->version || o->help) return 0;
        const char *unknown = NULL;   /* a misspelt option of climio's form takes the output's place */
        for (int c = 1; c < o->cargc && !unknown; c++)
            if (strncmp(o->cargv[c], "--", 2) == 0 && !strchr(o->cargv[c], '=') &&
                key_type(kernel_table, o->cargv[c] + 2) < 0)
                unknown = o->cargv[c];
        if (unknown)
            snprintf(err, n, "no output file given, and '%s' is no option of climio's form (mom_combine --mom5 --help "
                             "lists them; usage: mom_combine [options] output.nc [input ...])", unknown);
        else
            snprintf(err, n, "no output file given (usage: mom_combine [options] output.nc [input ...])");
        return -1;
    }
    o->output = argv[a++];
    for (; a < argc; a++) {
        if (strncmp(argv[a], "--", 2) == 0) {
            snprintf(err, n, "'%s' after the output file: options come before it, as in mppnccombine", argv[a]);
            return -1;
        }
        o->inputs[o->ninputs++] = argv[a];
    }
    return 0;
}

void mpp_cli_free(mpp_cli *o)
{
    free(o->cargv);
    free(o->inputs);
    memset(o, 0, sizeof *o);
}
