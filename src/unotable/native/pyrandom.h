/* CPython's random.Random in C: the MT19937 generator and the ways random.py draws from it
 * (getrandbits, _randbelow_with_getrandbits, random, shuffle), so that C code continuing a
 * Python generator (its ``getstate()`` words) draws exactly what Python would. Used by the
 * research env's tables (envloop.h: the Driver's deal seeds and window order) and the search
 * (search.h: the bot's worlds). Included by _core.c only. */
#ifndef UNOTABLE_PYRANDOM_H
#define UNOTABLE_PYRANDOM_H

#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int32_t index;
} PyRandom;

/* Whether ``words`` (random.Random's getstate(): 624 words, then the position) holds a position
 * the generator can go on from; mt_load takes them. */
static inline int mt_position_ok(const uint32_t *words) { return words[MT_N] <= MT_N; }

static inline void mt_load(PyRandom *r, const uint32_t *words) {
    memcpy(r->mt, words, MT_N * 4);
    r->index = (int32_t)words[MT_N];
}

/* The next 32-bit word (genrand_uint32). */
static uint32_t mt_next(PyRandom *r) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t *mt = r->mt, y;
    if (r->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* getrandbits(k) for 1 <= k <= 32. */
static inline uint32_t mt_bits(PyRandom *r, int k) { return mt_next(r) >> (32 - k); }

/* getrandbits(63): the low word first, then the high one's top 31 bits. */
static inline uint64_t mt_bits63(PyRandom *r) {
    uint64_t lo = mt_next(r);
    uint64_t hi = mt_next(r) >> 1;
    return (hi << 32) | lo;
}

/* getrandbits(64): the low word first. */
static inline uint64_t mt_bits64(PyRandom *r) {
    uint64_t lo = mt_next(r);
    return lo | (uint64_t)mt_next(r) << 32;
}

/* _randbelow_with_getrandbits(n), n >= 1: getrandbits(n.bit_length()) until below n. */
static inline int mt_below(PyRandom *r, int n) {
    int k = 32 - __builtin_clz((unsigned)n);
    uint32_t x = mt_bits(r, k);
    while (x >= (uint32_t)n) x = mt_bits(r, k);
    return (int)x;
}

/* random(): 53 random bits in [0, 1). */
static inline double mt_random(PyRandom *r) {
    uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* shuffle(x) of ``len`` small numbers. */
static void mt_shuffle(PyRandom *r, int8_t *x, int len) {
    for (int i = len - 1; i > 0; i--) {
        int j = mt_below(r, i + 1);
        int8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

#endif
