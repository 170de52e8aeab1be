#include "config.h"
#include "base/json.h"

#include <inttypes.h>
#include <math.h>

void cio_json_begin(cio_json *j, FILE *out, int pretty)
{
    j->out = out;
    j->depth = 0;
    j->first[0] = 1;
    j->pretty = pretty;
}

void cio_json_end(cio_json *j) { fputc('\n', j->out); }

static void put_string(FILE *o, const char *s)
{
    fputc('"', o);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", o); break;
        case '\\': fputs("\\\\", o); break;
        case '\n': fputs("\\n", o); break;
        case '\r': fputs("\\r", o); break;
        case '\t': fputs("\\t", o); break;
        default:
            if (*p < 0x20) fprintf(o, "\\u%04x", *p);
            else fputc(*p, o);
        }
    }
    fputc('"', o);
}

/* Separator, indentation and key before a value. */
static void member(cio_json *j, const char *key)
{
    if (j->depth > 0) {
        if (!j->first[j->depth]) fputc(',', j->out);
        j->first[j->depth] = 0;
        if (j->pretty) {
            fputc('\n', j->out);
            for (int i = 0; i < j->depth; i++) fputs("  ", j->out);
        }
    }
    if (key) {
        put_string(j->out, key);
        fputs(j->pretty ? ": " : ":", j->out);
    }
}

static void open_(cio_json *j, const char *key, char c)
{
    member(j, key);
    fputc(c, j->out);
    if (j->depth < 31) j->depth++;
    j->first[j->depth] = 1;
}

static void close_(cio_json *j, char c)
{
    int empty = j->first[j->depth];
    j->depth--;
    if (j->pretty && !empty) {
        fputc('\n', j->out);
        for (int i = 0; i < j->depth; i++) fputs("  ", j->out);
    }
    fputc(c, j->out);
}

void cio_json_obj(cio_json *j, const char *key) { open_(j, key, '{'); }
void cio_json_obj_end(cio_json *j) { close_(j, '}'); }
void cio_json_arr(cio_json *j, const char *key) { open_(j, key, '['); }
void cio_json_arr_end(cio_json *j) { close_(j, ']'); }

void cio_json_str(cio_json *j, const char *key, const char *v)
{
    member(j, key);
    if (v) put_string(j->out, v);
    else fputs("null", j->out);
}

void cio_json_int(cio_json *j, const char *key, int64_t v)
{
    member(j, key);
    fprintf(j->out, "%" PRId64, v);
}

void cio_json_uint(cio_json *j, const char *key, uint64_t v)
{
    member(j, key);
    fprintf(j->out, "%" PRIu64, v);
}

void cio_json_num(cio_json *j, const char *key, double v)
{
    member(j, key);
    /* integral values (byte counts held in doubles) exactly; others to 15 digits,
     * enough for any figure here without float noise in the last places */
    if (!isfinite(v)) fputs("null", j->out);
    else if (v == floor(v) && fabs(v) < 9007199254740992.0) fprintf(j->out, "%.0f", v);
    else fprintf(j->out, "%.15g", v);
}

void cio_json_bool(cio_json *j, const char *key, int v)
{
    member(j, key);
    fputs(v ? "true" : "false", j->out);
}

void cio_json_null(cio_json *j, const char *key)
{
    member(j, key);
    fputs("null", j->out);
}
