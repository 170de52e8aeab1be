/* One parameter parser for every kernel: zgrd style files ("key value" per line,
 * "!" and "#" comments, quoted values, "key=value" too), typed values validated
 * when set so errors carry "file:line", and --key value overrides on the command
 * line.  Each kernel declares its keys in a table of cio_param_spec. */
#ifndef CLIMIO_PARAMS_H
#define CLIMIO_PARAMS_H

#include <stdint.h>
#include <stdio.h>
#include "base/util.h"

typedef enum cio_ptype {
    CIO_P_STRING = 0,
    CIO_P_INT,        /* 64-bit integer */
    CIO_P_DOUBLE,
    CIO_P_BOOL,       /* true/false, yes/no, on/off, enable(d)/disable(d), 1/0 */
    CIO_P_CHOICE,     /* one of spec->choices ("a|b|c"), case-insensitive; "alias=a" entries accept
                       * another spelling and store the canonical one */
    CIO_P_SIZE,       /* bytes with optional k/m/g/t suffix (1024-based) */
    CIO_P_ALIAS       /* another name of the key in spec->def (a historical spelling) */
} cio_ptype;

enum {
    CIO_PF_IGNORED = 1u << 0,    /* accepted for compatibility, has no effect (said: app/applicability.h) */
    CIO_PF_FIRST_WINS = 1u << 1, /* a duplicate keeps the first value (original GCRM rule) */
    CIO_PF_CMDLINE = 1u << 2,    /* command-line option only (--help, --dry-run, ...) */
    CIO_PF_HIDDEN = 1u << 3,     /* not listed in --help */
    CIO_PF_PREFIX = 1u << 4,     /* boolean may be given with no value on the command line */
    CIO_PF_NONEMPTY = 1u << 5,   /* a string that names something (a file, a folder): '' is refused */
    CIO_PF_HELP_DEFAULT = 1u << 6 /* --help: the help text says the default (a kernel sets it when the key is
                                   * unset), so '[default: <def>]' is not appended */
};

typedef struct cio_param_spec {
    const char *key;
    cio_ptype type;
    const char *def;        /* default value as text; NULL: unset unless given */
    const char *help;
    const char *choices;    /* CIO_P_CHOICE: "a|b|c", aliases as "other=a" (not listed in messages) */
    double min, max;        /* numeric bounds, checked when min < max */
    unsigned flags;
} cio_param_spec;

#define CIO_PARAM_END {0, 0, 0, 0, 0, 0, 0, 0}

/* A kernel's plain parameters, those whose checks are the parser's (type,
 * bounds), listed once as X(name, TYPE, default, help, min, max), TYPE one of
 * INT, SIZE, DOUBLE, BOOL, STRING: the list gives the rows of the kernel's table
 * (CIO_PLAIN_ROW), the fields of its configuration, named as the keys
 * (CIO_PLAIN_FIELD), and their loading (CIO_PLAIN_LOAD, inside a function whose
 * configuration is `cfg` and store `prm`).  A new one is one line in the list
 * and its use (doc/internals.md). */
#define CIO_PLAIN_ROW(name, type, def, help, lo, hi) {#name, CIO_P_##type, def, help, 0, lo, hi, 0},
#define CIO_PLAIN_FIELD(name, type, def, help, lo, hi) CIO_PLAIN_CTYPE_##type name;
#define CIO_PLAIN_LOAD(name, type, def, help, lo, hi) cfg->name = CIO_PLAIN_GET_##type(prm, #name);
#define CIO_PLAIN_CTYPE_INT int64_t
#define CIO_PLAIN_CTYPE_SIZE int64_t
#define CIO_PLAIN_CTYPE_DOUBLE double
#define CIO_PLAIN_CTYPE_BOOL int
#define CIO_PLAIN_CTYPE_STRING const char *
#define CIO_PLAIN_GET_INT cio_param_int
#define CIO_PLAIN_GET_SIZE cio_param_int
#define CIO_PLAIN_GET_DOUBLE cio_param_double
#define CIO_PLAIN_GET_BOOL cio_param_bool
#define CIO_PLAIN_GET_STRING cio_param_str

typedef struct cio_params cio_params;

/* tables: NULL-terminated list of spec tables, each ending with CIO_PARAM_END. */
cio_params *cio_params_new(const cio_param_spec *const *tables);
void cio_params_free(cio_params *p);

/* Unknown keys are errors (with a "did you mean") unless this is set, in which
 * case they are warnings. */
void cio_params_allow_unknown(cio_params *p, int allow);

/* Parse a parameter file's text; fname is used in messages.  Returns 0, or -1 with
 * e->msg = "fname:line: what was expected, what was found". */
int cio_params_parse_text(cio_params *p, const char *text, size_t len, const char *fname, cio_err *e);

/* Parse the program's own built-in parameter text (no parameter file was given),
 * named `name` in origins and messages: as cio_params_parse_text, but its values
 * are the program's, not the user's (cio_param_origin_kind). */
int cio_params_parse_builtin(cio_params *p, const char *text, const char *name, cio_err *e);

/* Parse 'key value' lines that describe the run from elsewhere than a parameter
 * file (a file's own attributes): each value's origin is `origin`, messages begin
 * with it, and a value overrides whatever set the key before.  0, or -1 with e->msg. */
int cio_params_parse_described(cio_params *p, const char *text, const char *origin, cio_err *e);

/* Set one key from elsewhere (command line, environment); origin names the source. */
int cio_params_set(cio_params *p, const char *key, const char *value, const char *origin, cio_err *e);

/* Parse argv: "--key value", "--key=value", "-key value", bare booleans for
 * CIO_P_BOOL keys.  Non-option words are returned in *pos (the parameter file is
 * the first).  Values are kept and re-applied by cio_params_apply_cmdline() so the
 * command line wins over the file whatever the order. */
int cio_params_parse_argv(cio_params *p, int argc, char **argv, int *npos, char ***pos, cio_err *e);
int cio_params_apply_cmdline(cio_params *p, cio_err *e);
/* The flag (a boolean, or a choice that takes "true") written bare just before
 * positional word i ("--verify maybe": "verify"), or NULL: when that word is no
 * parameter file, it was meant as the option's value, and the message says what
 * the option expects (*expects: "true or false", "one of close|end|...").  */
const char *cio_params_bool_before(const cio_params *p, int i, const char **expects);

/* Getters: the key must be in a table (a programming error otherwise). */
int cio_param_isset(const cio_params *p, const char *key);   /* given, not defaulted */
int cio_param_known(const cio_params *p, const char *key);
int64_t cio_param_int(const cio_params *p, const char *key);
double cio_param_double(const cio_params *p, const char *key);
int cio_param_bool(const cio_params *p, const char *key);
const char *cio_param_str(const cio_params *p, const char *key);  /* NULL if unset */
const char *cio_param_origin(const cio_params *p, const char *key);

/* Who gave a key its value: nobody (the table's default, or unset), the
 * program's built-in parameter text, or the user (a parameter file, the command
 * line, the environment, a file's own attributes). */
typedef enum cio_origin_kind { CIO_ORIGIN_DEFAULT, CIO_ORIGIN_BUILTIN, CIO_ORIGIN_USER } cio_origin_kind;
cio_origin_kind cio_param_origin_kind(const cio_params *p, const char *key);
/* Did the user set the key?  (cio_param_origin_kind is CIO_ORIGIN_USER) */
int cio_params_is_set(const cio_params *p, const char *key);
/* Was the parameter text the program's built-in one (cio_params_parse_builtin)? */
int cio_params_from_builtin(const cio_params *p);

/* Walk the resolved configuration (for reports and JSON). */
int cio_params_count(const cio_params *p);
const cio_param_spec *cio_params_spec_at(const cio_params *p, int i);
const char *cio_params_value_at(const cio_params *p, int i);
const char *cio_params_origin_at(const cio_params *p, int i);
int cio_params_isset_at(const cio_params *p, int i);
/* The command-line options as given, in order, by their normalised key names. */
int cio_params_cmdline_count(const cio_params *p);
const char *cio_params_cmdline_key(const cio_params *p, int i);
const char *cio_params_cmdline_value(const cio_params *p, int i);
/* The index of the next command-line option that sets the same parameter as
 * option i (itself or through an alias) to another value, or -1. */
int cio_params_cmdline_overridden(const cio_params *p, int i);

/* Name the parameters that drive the big buffers for allocation-failure and
 * overflow messages (cio_set_alloc_hint): "ni 1440 (mom.in:3) x nj 1080 (default)".
 * keys: NULL-terminated. */
void cio_params_alloc_hint(const cio_params *p, const char *const *keys);

void cio_params_print_help(const cio_params *p, FILE *out);

#endif
