/* The summary of repetitions from known per-repetition values: min, median
 * (odd and even counts), mean, max and the sample standard deviation. */
/* sanitizers: yes */
#include "config.h"
#include "check.h"
#include "app/repeat.h"

#include <math.h>

#define NEAR(a, b) CHECK(fabs((double)(a) - (double)(b)) < 1e-9 * (1 + fabs((double)(b))))

int main(void)
{
    cio_rep_stats st;
    /* 2, 4, 4, 4, 5, 5, 7, 9 in a shuffled order: mean 5, sample variance 32/7 */
    const double v[] = {5, 2, 9, 4, 7, 4, 5, 4};
    cio_rep_stats_of(v, 8, &st);
    NEAR(st.min, 2);
    NEAR(st.max, 9);
    NEAR(st.mean, 5);
    NEAR(st.median, 4.5);
    NEAR(st.stddev, sqrt(32.0 / 7.0));
    CHECK(v[0] == 5 && v[1] == 2);      /* the input is left as it was */
    const double odd[] = {3.0, 1.0, 2.0};
    cio_rep_stats_of(odd, 3, &st);
    NEAR(st.median, 2);
    NEAR(st.stddev, 1);
    const double one[] = {42.5};
    cio_rep_stats_of(one, 1, &st);
    NEAR(st.min, 42.5);
    NEAR(st.median, 42.5);
    NEAR(st.max, 42.5);
    NEAR(st.stddev, 0);

    /* the example: 155.86, 50.61 and 53.81 MiB/s; the median is 53.81, not the mean 86.76 */
    cio_rep reps[3] = {{.seconds = 1.0, .bytes = 163430400, .mibps = 155.86}, {.seconds = 3.08, .bytes = 163430400, .mibps = 50.61},
                       {.seconds = 2.9, .bytes = 163430400, .mibps = 53.81}};
    cio_rep_summary s;
    cio_rep_summarise(reps, 3, &s);
    NEAR(s.mibps.median, 53.81);
    NEAR(s.mibps.mean, (155.86 + 50.61 + 53.81) / 3);
    NEAR(s.mibps.min, 50.61);
    NEAR(s.mibps.max, 155.86);
    NEAR(s.seconds.median, 2.9);
    NEAR(s.seconds.max, 3.08);
    CHECK_EQ_INT(s.mibps.n, 3);
    return CHECK_DONE();
}
