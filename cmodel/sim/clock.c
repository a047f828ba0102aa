#include "sim/clock.h"

#include <string.h>

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void gm_clock_init(gm_clock *c)
{
    memset(c, 0, sizeof *c);
}

int gm_clock_add(gm_clock *c, const char *name, uint32_t mhz, gm_error *err)
{
    if (c->n == GM_CLOCK_MAX_DOMAINS)
        return gm_fail(err, "too many clock domains (max %d)", GM_CLOCK_MAX_DOMAINS);
    if (mhz == 0 || mhz > 100000)
        return gm_fail(err, "clock domain %s: frequency %u MHz outside 1..100000",
                       name, mhz);
    gm_clock_domain *d = &c->d[c->n];
    d->name = name;
    d->mhz = mhz;
    return c->n++;
}

int gm_clock_finalize(gm_clock *c, gm_error *err)
{
    uint64_t l = 1;
    for (int i = 0; i < c->n; i++) {
        uint64_t f = c->d[i].mhz;
        l = l / gcd_u64(l, f) * f;
        if (l > (1ULL << 32))
            return gm_fail(err, "clock frequencies have a common multiple above 2^32 MHz;"
                                " choose frequencies with more common factors");
    }
    c->ticks_per_us = l;
    for (int i = 0; i < c->n; i++) {
        c->d[i].period = l / c->d[i].mhz;
        c->d[i].cycle = 0;
        c->d[i].next = 0;
    }
    c->now = 0;
    return 0;
}

int gm_clock_advance(gm_clock *c)
{
    int best = 0;
    for (int i = 1; i < c->n; i++)
        if (c->d[i].next < c->d[best].next)
            best = i;
    gm_clock_domain *d = &c->d[best];
    c->now = d->next;
    d->next += d->period;
    d->cycle++;
    return best;
}

void gm_clock_skip_to(gm_clock *c, int di, gm_time t)
{
    gm_clock_domain *d = &c->d[di];
    if (d->next >= t)
        return;
    uint64_t k = (t + d->period - 1) / d->period;
    d->cycle += k - d->next / d->period;
    d->next = k * d->period;
}
