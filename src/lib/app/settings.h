/* The common settings, resolved once: the parameter store (what the user wrote)
 * and what the kernel asked for in its setup step (cio_kernel_asks) become one
 * typed cio_settings, each value with where it came from.  Every other part of
 * the run reads the settings, never the store, for these keys; the store itself
 * is only written while parsing.  Each setting has one resolution function
 * (tests/test_settings.c). */
#ifndef CLIMIO_SETTINGS_H
#define CLIMIO_SETTINGS_H

#include <stddef.h>
#include <stdint.h>
#include "data/data.h"
#include "drivers/driver.h"
#include "engine/aggregate.h"
#include "base/params.h"
#include "base/util.h"

/* The options every kernel has (driver, iotype, format, hints, verify, json, ...). */
extern const cio_param_spec cio_common_params[];

/* What a kernel asks of the run before its settings are resolved.  A field left
 * at zero (NULL) asks nothing; the user's own setting wins unless said. */
typedef struct cio_kernel_asks {
    const char *kernel;             /* its name, for messages */
    cio_format kernel_format;       /* format "default": the kernel's own (CIO_FMT_NONE: the driver's) */
    cio_format format;              /* format "default" in this run: this one, checked against the
                                     * driver as if the user had named it (when format_origin is set) */
    const char *format_origin;
    const cio_driver *driver;       /* the driver when the user names none */
    const char *driver_origin;
    int driver_always;              /* ... and also when the user names another */
    int64_t header_pad;             /* header_pad when not given (header_pad_origin non-NULL) */
    const char *header_pad_origin;
    const char *chunking;           /* chunking when not given */
    const char *chunking_origin;
    int serial;                     /* one-rank files through the driver's serial API (serial_origin) */
    int size_hint_env;              /* with serial: the size hint per file from the environment, as FMS */
    int64_t size_hint;              /* with serial: the size hint when the user gives none (0: asks none) */
    const char *serial_origin;
    int deflate, shuffle;           /* filters when the user sets neither key (filters_origin non-NULL) */
    const char *filters_origin;
    const char *hints;              /* MPI-IO hints placed before the user's (the user's win) */
    const char *hints_origin;       /* their origin without user hints */
    const char *hints_user_origin;  /* with user hints (NULL: the user's origin) */
    int data_from_input;            /* the values written are read from the run's inputs (a conversion),
                                     * not made as --data says */
} cio_kernel_asks;

typedef struct cio_settings {
    const cio_driver *driver;
    const char *driver_origin;
    cio_mode iotype;                /* as asked (after a kernel default was adjusted to the driver) */
    const char *iotype_origin;
    int iotype_adjusted;            /* the kernel's default iotype replaced by the driver's blocking mode */
    cio_mode mode;                  /* the mode that runs (nc4_nonblocking_fallback) */
    int mode_fallback;
    cio_format format;
    const char *format_origin;
    int64_t header_pad;
    const char *header_pad_origin;
    const char *chunking;
    const char *chunking_origin;
    int serial, size_hint_env;
    int64_t size_hint;              /* with serial: the kernel's size hint (0: the driver's own parameter) */
    const char *serial_origin;
    int nofill;
    int clock_stops_for_data;       /* timing_window io: 1; end_to_end_with_data: 0 */
    int deflate;                    /* 0: off */
    const char *deflate_origin;
    int shuffle;
    const char *shuffle_origin;
    int storage_report;             /* asked for (filters turn it on too: cio_app_resolve_engine) */
    int64_t max_request;            /* bytes per rank per driver call */
    cio_agg_cfg agg;                /* io_tasks 0: every rank writes its own share */
    cio_data_kind data;
    char *hints;                    /* NULL: none (freed by cio_settings_free) */
    const char *hints_origin;
    int fsync;                      /* CIO_FSYNC_* (engine/engine.h) */
    int verify, verify_only, read;
    const char *verify_origin;
    int repetitions;
    unsigned changed;               /* CIO_SET_* of the keys resolved otherwise than the store holds */
} cio_settings;

enum {
    CIO_SET_DRIVER = 1u << 0,
    CIO_SET_IOTYPE = 1u << 1,
    CIO_SET_FORMAT = 1u << 2,
    CIO_SET_HEADER_PAD = 1u << 3,
    CIO_SET_CHUNKING = 1u << 4,
    CIO_SET_SERIAL = 1u << 5,
    CIO_SET_HINTS = 1u << 6,
    CIO_SET_VERIFY = 1u << 7,
    CIO_SET_DEFLATE = 1u << 8,
    CIO_SET_SHUFFLE = 1u << 9,
};

/* Each returns 0, or -1 with e naming the setting's origin.  They run in this
 * order, each reading what the ones before resolved. */
int cio_settings_driver(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e);
/* iotype: chosen (the command line, or a parameter file named on it:
 * cio_settings_iotype_chosen) or the
 * kernel's default, which a driver without it replaces by its blocking mode of
 * the same collectivity (note says so; "" when nothing changed). */
int cio_settings_iotype_chosen(const cio_params *p, int param_file_given);
int cio_settings_iotype(const cio_params *p, int chosen, cio_settings *s, char *note, size_t notelen, cio_err *e);
int cio_settings_format(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e);
int cio_settings_header_pad(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e);
int cio_settings_chunking(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e);
int cio_settings_serial(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e);
int cio_settings_hints(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e);
int cio_settings_fsync(const cio_params *p, cio_settings *s, cio_err *e);
int cio_settings_verify(const cio_params *p, cio_settings *s, cio_err *e);
int cio_settings_repetitions(const cio_params *p, cio_settings *s, cio_err *e);
int cio_settings_nofill(const cio_params *p, cio_settings *s, cio_err *e);
int cio_settings_timing_window(const cio_params *p, cio_settings *s, cio_err *e);
/* deflate and shuffle: the user's, else what the kernel asks (filters_origin). */
int cio_settings_deflate(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e);
int cio_settings_shuffle(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e);
int cio_settings_storage_report(const cio_params *p, cio_settings *s, cio_err *e);
int cio_settings_max_request_size(const cio_params *p, cio_settings *s, cio_err *e);
/* io_tasks ('all' or a count), stride, base, rearranger and its limits; nprocs:
 * the ranks the run has or plans for (pio_box with io_tasks all: one task each). */
int cio_settings_aggregation(const cio_params *p, int nprocs, cio_settings *s, cio_err *e);
int cio_settings_data(const cio_params *p, cio_settings *s, cio_err *e);

/* All of them, in order (nprocs: for cio_settings_aggregation). */
int cio_settings_resolve(const cio_params *p, const cio_kernel_asks *k, int iotype_chosen, int nprocs, cio_settings *s,
                         char *note, size_t notelen, cio_err *e);
void cio_settings_free(cio_settings *s);

/* For the reports: a key whose value the resolution set otherwise than the store
 * holds (a kernel's choice, an adjustment): its value as text and its origin.
 * Returns 0 when the store's value and origin stand. */
int cio_settings_shown(const cio_settings *s, const char *key, char *val, size_t n, const char **origin);

#endif
