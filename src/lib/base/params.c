#include "config.h"
#include "base/params.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096

typedef struct entry {
    const cio_param_spec *spec;
    char *value;          /* text, NULL when unset */
    char *origin;         /* "file:line", "command line", "default", ... */
    unsigned char isset;  /* given explicitly */
    unsigned char builtin; /* given by the program's built-in parameter text, not by the user */
    int line;             /* line in the file that set it, 0 otherwise */
    int64_t ival;
    double dval;
} entry;

typedef struct cmdline_kv { char *key, *value; } cmdline_kv;

struct cio_params {
    int n;
    entry *e;
    int allow_unknown;
    int ncmd;
    cmdline_kv *cmd;
    int nbare;
    struct { int pos; char *key; char *expects; } *bare;   /* bare flags followed by a positional word */
    int builtin_text;     /* the parameter text parsed is the program's built-in one */
};

static const char *ptype_name(const cio_param_spec *s)
{
    switch (s->type) {
    case CIO_P_INT: return "an integer";
    case CIO_P_DOUBLE: return "a number";
    case CIO_P_BOOL: return "true or false";
    case CIO_P_CHOICE: return "one of the listed choices";
    case CIO_P_SIZE: return "a size in bytes (e.g. 16777216, 16m, 1g)";
    default: return "a string";
    }
}

static void norm_key(char *k)
{
    for (; *k; k++) {
        *k = (char)tolower((unsigned char)*k);
        if (*k == '-') *k = '_';
    }
}

/* An alias (CIO_P_ALIAS) stands for the key it names. */
static entry *find(const cio_params *p, const char *key)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", key);
    norm_key(buf);
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->e[i].spec->key, buf) == 0)
            return p->e[i].spec->type == CIO_P_ALIAS ? find(p, p->e[i].spec->def) : &p->e[i];
    return NULL;
}

static entry *must_find(const cio_params *p, const char *key)
{
    entry *e = find(p, key);
    if (!e) cio_die("internal: parameter '%s' is not declared", key);
    return e;
}

static const char *suggest(const cio_params *p, const char *key)
{
    int best = 99;
    const char *who = NULL;
    for (int i = 0; i < p->n; i++) {
        int d = cio_edit_distance(key, p->e[i].spec->key);
        if (d < best) { best = d; who = p->e[i].spec->key; }
    }
    int len = (int)strlen(key);
    int limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    return best <= limit ? who : NULL;
}

/* A choice list is "a|b|c"; an entry "alias=a" accepts another spelling of a
 * (GCRM-IO's own inputs, for instance) and stores the canonical one.  Matching is
 * whole-word and case-insensitive: one rule for every enumeration of every kernel. */
static int choice_canonical(const char *choices, const char *value, char *canon, size_t len)
{
    const char *c = choices;
    while (c && *c) {
        const char *bar = strchr(c, '|');
        size_t n = bar ? (size_t)(bar - c) : strlen(c);
        const char *eq = memchr(c, '=', n);
        size_t an = eq ? (size_t)(eq - c) : n;
        if (strlen(value) == an && strncasecmp(value, c, an) == 0) {
            const char *v = eq ? eq + 1 : c;
            size_t vn = eq ? n - an - 1 : n;
            if (vn >= len) vn = len - 1;
            memcpy(canon, v, vn);
            canon[vn] = '\0';
            for (char *q = canon; *q; q++) *q = (char)tolower((unsigned char)*q);
            return 1;
        }
        c = bar ? bar + 1 : NULL;
    }
    return 0;
}

/* A CIO_P_CHOICE that accepts "true" (--fsync: true is close) given without a
 * value: next, the following argument, is not one of its choices. */
static int bare_choice(const cio_param_spec *s, const char *next)
{
    char c[64];
    if (s->type != CIO_P_CHOICE || !choice_canonical(s->choices, "true", c, sizeof c)) return 0;
    return !next || !choice_canonical(s->choices, next, c, sizeof c);
}

/* A flag given bare just before positional word pos: if that word names no
 * file, it was meant as the flag's value (cio_params_bare_expects). */
static void note_bare(cio_params *p, int pos, const char *key, const char *expects)
{
    p->bare = cio_realloc(p->bare, (size_t)(p->nbare + 1) * sizeof *p->bare);
    p->bare[p->nbare].pos = pos;
    p->bare[p->nbare].key = cio_strdup(key);
    p->bare[p->nbare].expects = cio_strdup(expects);
    p->nbare++;
}

/* The choices users are told about: the canonical spellings only. */
static const char *choice_list(const cio_param_spec *s, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    const char *c = s->choices;
    while (c && *c) {
        const char *bar = strchr(c, '|');
        size_t n = bar ? (size_t)(bar - c) : strlen(c);
        if (!memchr(c, '=', n) && at + n + 2 < len) {
            if (at) buf[at++] = '|';
            memcpy(buf + at, c, n);
            at += n;
            buf[at] = '\0';
        }
        c = bar ? bar + 1 : NULL;
    }
    return buf;
}

/* Validate and store a value; where = "file:line" for messages. */
static int store(entry *en, const char *value, const char *origin, int line, const char *where, cio_err *err)
{
    const cio_param_spec *s = en->spec;
    int64_t iv = 0;
    double dv = 0;
    char canon[128], shown[512];
    switch (s->type) {
    case CIO_P_INT:
        if (cio_parse_int(value, &iv) != 0)
            return cio_seterr(err, "%s: %s expects an integer, found '%s'", where, s->key, value);
        dv = (double)iv;
        break;
    case CIO_P_SIZE:
        if (cio_parse_size(value, &iv) != 0)
            return cio_seterr(err, "%s: %s expects a size in bytes (e.g. 1048576, 64k, 16m, 1g), found '%s'",
                              where, s->key, value);
        dv = (double)iv;
        break;
    case CIO_P_DOUBLE:
        if (cio_parse_double(value, &dv) != 0 || !isfinite(dv))
            return cio_seterr(err, "%s: %s expects a number, found '%s'", where, s->key, value);
        /* the integer view, saturated: a double beyond int64 has no defined cast */
        iv = dv >= 0x1p63 ? INT64_MAX : dv < -0x1p63 ? INT64_MIN : (int64_t)dv;
        break;
    case CIO_P_BOOL: {
        int b;
        if (cio_parse_bool(value, &b) != 0)
            return cio_seterr(err, "%s: %s expects true or false, found '%s'", where, s->key, value);
        iv = b;
        dv = b;
        break;
    }
    case CIO_P_CHOICE:
        if (!choice_canonical(s->choices, value, canon, sizeof canon))
            return cio_seterr(err, "%s: %s expects one of %s, found '%s'", where, s->key, choice_list(s, shown, sizeof shown),
                              value);
        value = canon;
        break;
    default:
        if ((s->flags & CIO_PF_NONEMPTY) && !*value)
            return cio_seterr(err, "%s: %s expects a name, found ''", where, s->key);
        break;
    }
    if ((s->type == CIO_P_INT || s->type == CIO_P_DOUBLE || s->type == CIO_P_SIZE) && s->min < s->max &&
        (dv < s->min || dv > s->max))
        return cio_seterr(err, "%s: %s must be between %g and %g, found %s", where, s->key, s->min, s->max, value);
    cio_free(en->value);
    cio_free(en->origin);
    en->value = cio_strdup(value);
    en->origin = cio_strdup(origin);
    en->ival = iv;
    en->dval = dv;
    en->line = line;
    return 0;
}

cio_params *cio_params_new(const cio_param_spec *const *tables)
{
    cio_params *p = cio_calloc(1, sizeof *p);
    int n = 0;
    for (int t = 0; tables[t]; t++)
        for (const cio_param_spec *s = tables[t]; s->key; s++) n++;
    p->e = cio_calloc((size_t)n, sizeof *p->e);
    for (int t = 0; tables[t]; t++)
        for (const cio_param_spec *s = tables[t]; s->key; s++) {
            entry *dup = find(p, s->key);
            entry *en = dup ? dup : &p->e[p->n++];   /* a later table overrides a default */
            en->spec = s;
            if (s->def && s->type != CIO_P_ALIAS) {
                cio_err e = {0};
                if (store(en, s->def, "default", 0, "default", &e) != 0)
                    cio_die("internal: bad default for %s: %s", s->key, e.msg);
            } else {
                cio_free(en->value);
                cio_free(en->origin);
                en->value = NULL;
                en->origin = cio_strdup("unset");
            }
            en->isset = 0;
        }
    return p;
}

void cio_params_free(cio_params *p)
{
    if (!p) return;
    for (int i = 0; i < p->n; i++) {
        cio_free(p->e[i].value);
        cio_free(p->e[i].origin);
    }
    for (int i = 0; i < p->ncmd; i++) {
        cio_free(p->cmd[i].key);
        cio_free(p->cmd[i].value);
    }
    cio_free(p->cmd);
    for (int i = 0; i < p->nbare; i++) {
        cio_free(p->bare[i].key);
        cio_free(p->bare[i].expects);
    }
    cio_free(p->bare);
    cio_free(p->e);
    cio_free(p);
}

void cio_params_allow_unknown(cio_params *p, int allow) { p->allow_unknown = allow; }

static int unknown_key(cio_params *p, const char *key, const char *where, cio_err *e)
{
    const char *s = suggest(p, key);
    if (p->allow_unknown) {
        if (s) cio_warn0("%s: unknown key '%s' ignored (did you mean '%s'?)", where, key, s);
        else cio_warn0("%s: unknown key '%s' ignored", where, key);
        return 0;
    }
    if (s) return cio_seterr(e, "%s: unknown key '%s' (did you mean '%s'?)", where, key, s);
    return cio_seterr(e, "%s: unknown key '%s' (run with --help for the list of keys)", where, key);
}

static int is_key_char(int c) { return isalnum(c) || c == '_' || c == '-' || c == '.'; }

/* The line at *cur into line (the '\r' of a CRLF dropped); *cur moves to the next. */
static int take_line(const char **cur, char *line, const char *where, cio_err *e)
{
    const char *eol = strchr(*cur, '\n');
    size_t n = eol ? (size_t)(eol - *cur) : strlen(*cur);
    const char *next = eol ? eol + 1 : *cur + n;
    if (n >= MAX_LINE)
        return cio_seterr(e, "%s: line is %zu characters long; expected a 'key value' line under %d characters",
                          where, n, MAX_LINE);
    memcpy(line, *cur, n);
    line[n] = '\0';
    *cur = next;
    if (n && line[n - 1] == '\r') line[--n] = '\0';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c < 32 && c != '\t')
            return cio_seterr(e, "%s: control character 0x%02x: binary data, expected a 'key value' line", where, c);
    }
    return 0;
}

/* A 'key value' line into key (normalised) and value (MAX_LINE bytes; *quoted:
 * it was quoted, so it may be empty): 0, 1 for a blank or comment line, -1 bad. */
static int split_line(char *line, const char *where, char *key, size_t keylen, char *value, int *quoted, cio_err *e)
{
    char *s = line;
    while (isspace((unsigned char)*s)) s++;
    if (!*s || *s == '!' || *s == '#') return 1;
    char *k = s;
    while (*s && is_key_char((unsigned char)*s)) s++;
    if (s == k || (*s && !isspace((unsigned char)*s) && *s != '=')) {
        char shown[40];
        size_t sl = strlen(k) < sizeof shown - 1 ? strlen(k) : sizeof shown - 1;
        memcpy(shown, k, sl);
        shown[sl] = '\0';
        return cio_seterr(e, "%s: expected a key name (letters, digits, '_'), found '%s'", where, shown);
    }
    if ((size_t)(s - k) >= keylen) return cio_seterr(e, "%s: key name too long", where);
    memcpy(key, k, (size_t)(s - k));
    key[s - k] = '\0';
    norm_key(key);
    while (isspace((unsigned char)*s)) s++;
    if (*s == '=') {
        s++;
        while (isspace((unsigned char)*s)) s++;
    }
    *quoted = *s == '"' || *s == '\'';
    if (*quoted) {
        char q = *s++;
        char *end = strchr(s, q);
        if (!end) return cio_seterr(e, "%s: value of %s has no closing %c quote", where, key, q);
        memcpy(value, s, (size_t)(end - s));
        value[end - s] = '\0';
        s = end + 1;
    } else {
        char *v = s;
        while (*s && !isspace((unsigned char)*s) && *s != '!' && *s != '#') s++;
        memcpy(value, v, (size_t)(s - v));
        value[s - v] = '\0';
        if (strchr(value, '"') || strchr(value, '\''))
            return cio_seterr(e, "%s: value of %s has a quote that is not closed: %s", where, key, value);
    }
    while (isspace((unsigned char)*s)) s++;
    if (*s && *s != '!' && *s != '#')
        return cio_seterr(e, "%s: unexpected '%s' after the value of %s; quote values that contain blanks", where, s,
                          key);
    return 0;
}

/* A key the file already set: 1 to skip this line (the same value, or the first
 * value wins), -1 for a different value, 0 when not set by the file before. */
static int duplicate_key(const entry *en, const char *key, const char *value, const char *where, cio_err *e)
{
    if (!en->isset || en->line <= 0) return 0;
    int same = en->value && strcmp(en->value, value) == 0;
    if (!same && (en->spec->type == CIO_P_CHOICE || en->spec->type == CIO_P_BOOL))
        same = cio_strcaseeq(en->value, value);
    if (same) {
        cio_warn0("%s: duplicate key '%s' (first at line %d) with the same value", where, key, en->line);
        return 1;
    }
    if (en->spec->flags & CIO_PF_FIRST_WINS) {
        cio_warn0("%s: duplicate key '%s' ignored: the first value (line %d) is kept", where, key, en->line);
        return 1;
    }
    return cio_seterr(e, "%s: duplicate key '%s' with a different value ('%s' at line %d, now '%s')", where, key,
                      en->value, en->line, value);
}

/* The lines of text; origin NULL: each value's origin is "fname:line", else origin
 * itself (which then also begins the messages). */
static int parse_lines(cio_params *p, const char *text, const char *fname, const char *origin, cio_err *e)
{
    int lineno = 0;
    const char *cur = text;
    while (*cur) {
        lineno++;
        char where[600], line[MAX_LINE], key[128], value[MAX_LINE];
        int quoted = 0;
        if (origin) snprintf(where, sizeof where, "%s", origin);
        else snprintf(where, sizeof where, "%s:%d", fname, lineno);
        if (take_line(&cur, line, where, e) != 0) return -1;
        int rc = split_line(line, where, key, sizeof key, value, &quoted, e);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        entry *en = find(p, key);
        if (!en) {
            if (unknown_key(p, key, where, e)) return -1;
            continue;
        }
        if (!value[0] && !quoted)
            return cio_seterr(e, "%s: key '%s' has no value; expected %s", where, key, ptype_name(en->spec));
        if (en->spec->flags & CIO_PF_CMDLINE)
            return cio_seterr(e, "%s: %s is a command-line option, not a parameter-file key", where, key);
        rc = origin ? 0 : duplicate_key(en, key, value, where, e);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        if (store(en, value, where, origin ? 0 : lineno, where, e) != 0) return -1;
        en->isset = 1;
        en->builtin = p->builtin_text && !origin;
    }
    return lineno;
}

int cio_params_parse_text(cio_params *p, const char *text, size_t len, const char *fname, cio_err *e)
{
    if (strlen(text) != len)
        return cio_seterr(e, "%s: contains NUL bytes: binary data, not a parameter file", fname);
    int lines = parse_lines(p, text, fname, NULL, e);
    if (lines < 0) return -1;
    if (lines == 0) return cio_seterr(e, "%s: file is empty; expected 'key value' lines", fname);
    return 0;
}

int cio_params_parse_builtin(cio_params *p, const char *text, const char *name, cio_err *e)
{
    p->builtin_text = 1;
    return cio_params_parse_text(p, text, strlen(text), name, e);
}

int cio_params_parse_described(cio_params *p, const char *text, const char *origin, cio_err *e)
{
    return parse_lines(p, text, NULL, origin, e) < 0 ? -1 : 0;
}

int cio_params_set(cio_params *p, const char *key, const char *value, const char *origin, cio_err *e)
{
    entry *en = find(p, key);
    if (!en) return unknown_key(p, key, origin, e);
    if (store(en, value, origin, 0, origin, e) != 0) return -1;
    en->isset = 1;
    en->builtin = 0;
    return 0;
}

int cio_params_parse_argv(cio_params *p, int argc, char **argv, int *npos, char ***pos, cio_err *e)
{
    *npos = 0;
    *pos = cio_calloc((size_t)argc + 1, sizeof **pos);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            (*pos)[(*npos)++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) (*pos)[(*npos)++] = argv[i];
            break;
        }
        while (*a == '-') a++;
        char key[128];
        const char *eq = strchr(a, '=');
        size_t klen = eq ? (size_t)(eq - a) : strlen(a);
        if (klen >= sizeof key) return cio_seterr(e, "command line: option %s too long", argv[i]);
        memcpy(key, a, klen);
        key[klen] = '\0';
        norm_key(key);
        entry *en = find(p, key);
        if (!en) {
            const char *s = suggest(p, key);
            if (s) return cio_seterr(e, "command line: unknown option '%s' (did you mean '--%s'?)", argv[i], s);
            return cio_seterr(e, "command line: unknown option '%s' (see --help)", argv[i]);
        }
        const char *value;
        if (eq) {
            value = eq + 1;
        } else if (en->spec->type == CIO_P_BOOL) {
            int b;
            if (i + 1 < argc && cio_parse_bool(argv[i + 1], &b) == 0) {
                value = argv[++i];
            } else {
                value = "true";
                if (i + 1 < argc && argv[i + 1][0] != '-') note_bare(p, *npos, key, "true or false");
            }
        } else if (bare_choice(en->spec, i + 1 < argc ? argv[i + 1] : NULL)) {
            value = "true";     /* a choice with a "true" spelling stands alone as a flag, as a boolean does */
            if (i + 1 < argc && argv[i + 1][0] != '-') {
                char list[512], expects[600];
                snprintf(expects, sizeof expects, "one of %s", choice_list(en->spec, list, sizeof list));
                note_bare(p, *npos, key, expects);
            }
        } else {
            if (i + 1 >= argc)
                return cio_seterr(e, "command line: option --%s needs a value (%s)", key, ptype_name(en->spec));
            value = argv[++i];
        }
        p->cmd = cio_realloc(p->cmd, (size_t)(p->ncmd + 1) * sizeof *p->cmd);
        p->cmd[p->ncmd].key = cio_strdup(key);
        p->cmd[p->ncmd].value = cio_strdup(value);
        p->ncmd++;
        if (cio_params_set(p, key, value, "command line", e) != 0) return -1;
    }
    return 0;
}

const char *cio_params_bool_before(const cio_params *p, int i, const char **expects)
{
    for (int k = 0; k < p->nbare; k++)
        if (p->bare[k].pos == i) {
            if (expects) *expects = p->bare[k].expects;
            return p->bare[k].key;
        }
    return NULL;
}

int cio_params_apply_cmdline(cio_params *p, cio_err *e)
{
    for (int i = 0; i < p->ncmd; i++)
        if (cio_params_set(p, p->cmd[i].key, p->cmd[i].value, "command line", e) != 0) return -1;
    return 0;
}

int cio_param_known(const cio_params *p, const char *key) { return find(p, key) != NULL; }
int cio_param_isset(const cio_params *p, const char *key) { return must_find(p, key)->isset; }
int64_t cio_param_int(const cio_params *p, const char *key) { return must_find(p, key)->ival; }

cio_origin_kind cio_param_origin_kind(const cio_params *p, const char *key)
{
    const entry *en = must_find(p, key);
    return !en->isset ? CIO_ORIGIN_DEFAULT : en->builtin ? CIO_ORIGIN_BUILTIN : CIO_ORIGIN_USER;
}

int cio_params_is_set(const cio_params *p, const char *key) { return cio_param_origin_kind(p, key) == CIO_ORIGIN_USER; }
int cio_params_from_builtin(const cio_params *p) { return p->builtin_text; }
double cio_param_double(const cio_params *p, const char *key) { return must_find(p, key)->dval; }
int cio_param_bool(const cio_params *p, const char *key) { return must_find(p, key)->ival != 0; }
const char *cio_param_str(const cio_params *p, const char *key) { return must_find(p, key)->value; }
const char *cio_param_origin(const cio_params *p, const char *key) { return must_find(p, key)->origin; }

int cio_params_count(const cio_params *p) { return p->n; }
const cio_param_spec *cio_params_spec_at(const cio_params *p, int i) { return p->e[i].spec; }
const char *cio_params_value_at(const cio_params *p, int i) { return p->e[i].value; }
const char *cio_params_origin_at(const cio_params *p, int i) { return p->e[i].origin; }
int cio_params_isset_at(const cio_params *p, int i) { return p->e[i].isset; }
int cio_params_cmdline_count(const cio_params *p) { return p->ncmd; }

int cio_params_cmdline_overridden(const cio_params *p, int i)
{
    const entry *en = find(p, p->cmd[i].key);
    for (int k = i + 1; en && k < p->ncmd; k++) {
        if (find(p, p->cmd[k].key) != en) continue;
        const char *was = p->cmd[i].value, *now = p->cmd[k].value;
        int same = strcmp(was, now) == 0 ||
                   ((en->spec->type == CIO_P_CHOICE || en->spec->type == CIO_P_BOOL) && cio_strcaseeq(was, now));
        return same ? -1 : k;
    }
    return -1;
}
const char *cio_params_cmdline_key(const cio_params *p, int i) { return p->cmd[i].key; }
const char *cio_params_cmdline_value(const cio_params *p, int i) { return p->cmd[i].value; }

void cio_params_alloc_hint(const cio_params *p, const char *const *keys)
{
    char buf[600] = "";
    size_t at = 0;
    for (int i = 0; keys[i] && at < sizeof buf; i++) {
        const entry *en = find(p, keys[i]);
        if (!en) continue;
        int n = snprintf(buf + at, sizeof buf - at, "%s%s %s (%s)", at ? " x " : "", en->spec->key,
                         en->value ? en->value : "unset", en->origin);
        if (n < 0) break;
        at += (size_t)n;
    }
    cio_set_alloc_hint(buf);
}

void cio_params_print_help(const cio_params *p, FILE *out)
{
    for (int i = 0; i < p->n; i++) {
        const cio_param_spec *s = p->e[i].spec;
        if (s->flags & CIO_PF_HIDDEN) continue;
        char head[160];
        char shown[512];
        if (s->type == CIO_P_ALIAS) {
            snprintf(head, sizeof head, "  --%s VALUE", s->key);
            fprintf(out, "%-44s the same as --%s (its historical name)\n", head, s->def);
            continue;
        }
        if (s->type == CIO_P_CHOICE) snprintf(head, sizeof head, "  --%s %s", s->key, choice_list(s, shown, sizeof shown));
        else if (s->type == CIO_P_BOOL) snprintf(head, sizeof head, "  --%s [true|false]", s->key);
        else snprintf(head, sizeof head, "  --%s %s", s->key,
                      s->type == CIO_P_INT ? "N" : s->type == CIO_P_DOUBLE ? "X" : s->type == CIO_P_SIZE ? "BYTES" : "VALUE");
        fprintf(out, "%-44s %s", head, s->help ? s->help : "");
        if (s->def && *s->def && !(s->flags & CIO_PF_HELP_DEFAULT)) fprintf(out, " [default: %s]", s->def);
        if (s->flags & CIO_PF_IGNORED) fprintf(out, " (accepted, no effect)");
        fputc('\n', out);
    }
}
