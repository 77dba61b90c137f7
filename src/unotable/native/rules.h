/* The rules of a hand in C (docs/rules.md §1-9), function by function as src/unotable/engine.py;
 * the state, its randomness (the engine's shuffle), legal actions and their effects.
 * Included by _core.c only (one translation unit: every function static). */
#ifndef UNOTABLE_RULES_H
#define UNOTABLE_RULES_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#define MAXP 10
#define MAXC 112
#define NT 65
#define NAMAX 512
#define MAXIDS 512

enum { K_PLAY, K_DRAW, K_PASS, K_COLOR, K_UNO, K_CATCH, K_CHALLENGE, K_ACCEPT, K_INVIS, K_WRONG, K_PENALIZE };
enum { E_NUMBER, E_SKIP, E_REVERSE, E_DRAW, E_WILD, E_WD4, E_HOWLER, E_INVIS, E_MATER, E_BLANK };
enum { P_TURN, P_AFTER_DRAW, P_CHOOSE_COLOR, P_RESPOND, P_HAND_OVER, P_GAME_OVER };
enum { M_SOLO, M_PARTNERS, M_TEAMS, M_ROTATING, M_TWO_TABLES, M_CHALLENGE };

#define C_WD4 61
#define C_HOWLER 62
#define C_INVIS 63
#define C_MATER 64
#define TABLE_SEAT (-2)

/* ------------------------------------------------------------------------------------------ */
/* Tables: what the hot path looks up (engine.Tables). */

typedef struct {
    int n, draw_amount, rw, sugg, must_play_drawn, target, mode, scoring, teams;
    int ndeck;
    uint8_t deck[MAXC];
    int8_t effect[NT];
    uint8_t wild[NT];
    int8_t color[NT];
    uint8_t points[NT];
    uint8_t playable[5 * NT][NT];
    uint8_t blank_draw[4], blank_skip[4], blank_rev[4], blank_wild[4], blank_reveal[4];
    int na;
    int8_t a_kind[NAMAX], a_card[NAMAX], a_arg[NAMAX], a_uno[NAMAX];
    int16_t play_id[NT][2][MAXP + 1]; /* [card][uno][arg + 1] */
    int16_t draw_id, pass_id, uno_id, challenge_id, accept_id;
    int16_t color_id[4], catch_id[MAXP], invis_id[2][4], penalize_id[MAXP];
    /* derived by tables_derive: the ways to play each card type (one spelling: a wild card's
     * colours, the Howler's targets, else 1), and the types 0-63 played in four ways */
    uint8_t ways[NT];
    uint64_t four_ways, multi_ways; /* types 0-63 played in four ways, in more than one */
    uint64_t playable_mask[5 * NT]; /* playable[row] as bits: types 0-63 (Mater is [row][C_MATER]) */
} Tables;

/* Tables' derived fields, from n, wild and the play ids (add_play_ids' count of ids). */
static void tables_derive(Tables *tb) {
    for (int row = 0; row < 5 * NT; row++) {
        uint64_t bits = 0;
        for (int t = 0; t < 64; t++) bits |= (uint64_t)(tb->playable[row][t] != 0) << t;
        tb->playable_mask[row] = bits;
    }
    tb->four_ways = tb->multi_ways = 0;
    for (int t = 0; t < NT; t++) {
        int w = t == C_HOWLER ? tb->n - 1 : (tb->wild[t] && t != C_MATER) ? 4 : 1;
        tb->ways[t] = (uint8_t)w;
        if (w == 4 && t < 64) tb->four_ways |= 1ULL << t;
        if (w > 1 && t < 64) tb->multi_ways |= 1ULL << t;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The state of a hand (state.State). */

typedef struct {
    uint64_t rng;
    int32_t scores[MAXP];
    int32_t hand_points; /* -1: None */
    int16_t drew_facing[MAXP];
    uint16_t exposed;
    uint16_t game_winners; /* a mask of seats or teams */
    int8_t n, phase, current, direction, dealer, color, drawn, after_color;
    int8_t pend_card, pend_from, pend_color, pend_guilty, winner, any_known;
    uint8_t fast; /* 1: shuffles are shuffle_fast's (batched loops with deals="fast") */
    uint8_t ncards;
    uint8_t start[MAXP + 3]; /* segment k starts at start[k]; start[n + 2] == ncards */
    uint8_t cards[MAXC];
    uint16_t known[MAXC];
} UState;

/* The card moves' vectors reach past ``cards`` into ``known`` and past ``start`` into ``cards``. */
_Static_assert(sizeof(UState) - offsetof(UState, cards) - MAXC >= 48, "cards_down reaches 48 bytes past a card");
_Static_assert(offsetof(UState, cards) - offsetof(UState, start) == MAXP + 3, "starts_add's vector");

#define SEG_DISCARD(st) ((st)->n + 1)
#define HAND_BEGIN(st, s) ((st)->start[(s) + 1])
#define HAND_END(st, s) ((st)->start[(s) + 2])
#define HAND_LEN(st, s) (HAND_END(st, s) - HAND_BEGIN(st, s))
#define DRAW_LEN(st) ((st)->start[1])
#define DISCARD_LEN(st) ((st)->ncards - (st)->start[(st)->n + 1])
#define TOP(st) ((st)->cards[(st)->start[(st)->n + 1]]) /* the discard pile is kept top first */

/* ``x`` mod ``n`` for ``x`` in [-n, 2n): every caller's range (a seat plus or minus a few
 * places, or one seat less another); no division, which costs tens of cycles. */
static inline int mod_seat(int x, int n) {
    x += x < 0 ? n : 0;
    return x >= n ? x - n : x;
}

/* The bits set in ``x``, inline (__builtin_popcountll is a call to libgcc without -mpopcnt, which
 * the portable build does not assume). */
static inline int popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* popcount64, or the processor's instruction where the caller is compiled for it (``hw``: a
 * constant of the caller's, see play_job). */
static inline __attribute__((always_inline)) int popcount_hw(uint64_t x, int hw) {
    return hw ? __builtin_popcountll(x) : popcount64(x);
}

/* ------------------------------------------------------------------------------------------ */
/* Randomness: SplitMix64 (engine._next_random) and SHAKE-128 (hashlib.shake_128). */

static inline uint64_t next_random(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static const uint64_t KECCAK_RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
#define ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n)))) /* 0 < n < 64 */
/* Keccak-f[1600], one round from the 25 lanes A<x><y> into E<x><y> (two rounds per turn of the
 * loop, the lanes in locals, nothing copied): theta's column parities, then rho and pi lane by
 * lane straight into each row of the result, chi on that row at once, iota on lane (0, 0).
 * 6.1 k instructions a permutation (6.4 k with the state in arrays and copied each round). */
#define KCHI(E, y)                                                                             \
    E##0##y = b0 ^ (~b1 & b2);                                                                 \
    E##1##y = b1 ^ (~b2 & b3);                                                                 \
    E##2##y = b2 ^ (~b3 & b4);                                                                 \
    E##3##y = b3 ^ (~b4 & b0);                                                                 \
    E##4##y = b4 ^ (~b0 & b1);
#define KCOL(A, x) (A##x##0 ^ A##x##1 ^ A##x##2 ^ A##x##3 ^ A##x##4)
#define KROUND(A, E, rc)                                                                       \
    {                                                                                          \
        __typeof__(A##00) c0 = KCOL(A, 0), c1 = KCOL(A, 1), c2 = KCOL(A, 2), c3 = KCOL(A, 3);  \
        __typeof__(A##00) c4 = KCOL(A, 4);                                                     \
        __typeof__(A##00) d0 = c4 ^ ROL(c1, 1), d1 = c0 ^ ROL(c2, 1), d2 = c1 ^ ROL(c3, 1);    \
        __typeof__(A##00) d3 = c2 ^ ROL(c4, 1), d4 = c3 ^ ROL(c0, 1);                          \
        __typeof__(A##00) b0 = A##00 ^ d0, b1 = ROL(A##11 ^ d1, 44), b2 = ROL(A##22 ^ d2, 43); \
        __typeof__(A##00) b3 = ROL(A##33 ^ d3, 21), b4 = ROL(A##44 ^ d4, 14);                  \
        KCHI(E, 0)                                                                             \
        E##00 ^= (rc);                                                                         \
        b0 = ROL(A##30 ^ d3, 28), b1 = ROL(A##41 ^ d4, 20), b2 = ROL(A##02 ^ d0, 3);           \
        b3 = ROL(A##13 ^ d1, 45), b4 = ROL(A##24 ^ d2, 61);                                    \
        KCHI(E, 1)                                                                             \
        b0 = ROL(A##10 ^ d1, 1), b1 = ROL(A##21 ^ d2, 6), b2 = ROL(A##32 ^ d3, 25);            \
        b3 = ROL(A##43 ^ d4, 8), b4 = ROL(A##04 ^ d0, 18);                                     \
        KCHI(E, 2)                                                                             \
        b0 = ROL(A##40 ^ d4, 27), b1 = ROL(A##01 ^ d0, 36), b2 = ROL(A##12 ^ d1, 10);          \
        b3 = ROL(A##23 ^ d2, 15), b4 = ROL(A##34 ^ d3, 56);                                    \
        KCHI(E, 3)                                                                             \
        b0 = ROL(A##20 ^ d2, 62), b1 = ROL(A##31 ^ d3, 55), b2 = ROL(A##42 ^ d4, 39);          \
        b3 = ROL(A##03 ^ d0, 41), b4 = ROL(A##14 ^ d1, 2);                                     \
        KCHI(E, 4)                                                                             \
    }

/* Lane (x, y) of the state is s[x + 5y]. */
static void keccak_f(uint64_t s[25]) {
    uint64_t a00 = s[0], a10 = s[1], a20 = s[2], a30 = s[3], a40 = s[4];
    uint64_t a01 = s[5], a11 = s[6], a21 = s[7], a31 = s[8], a41 = s[9];
    uint64_t a02 = s[10], a12 = s[11], a22 = s[12], a32 = s[13], a42 = s[14];
    uint64_t a03 = s[15], a13 = s[16], a23 = s[17], a33 = s[18], a43 = s[19];
    uint64_t a04 = s[20], a14 = s[21], a24 = s[22], a34 = s[23], a44 = s[24];
    uint64_t e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42;
    uint64_t e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;
    for (int r = 0; r < 24; r += 2) {
        KROUND(a, e, KECCAK_RC[r])
        KROUND(e, a, KECCAK_RC[r + 1])
    }
    s[0] = a00; s[1] = a10; s[2] = a20; s[3] = a30; s[4] = a40;
    s[5] = a01; s[6] = a11; s[7] = a21; s[8] = a31; s[9] = a41;
    s[10] = a02; s[11] = a12; s[12] = a22; s[13] = a32; s[14] = a42;
    s[15] = a03; s[16] = a13; s[17] = a23; s[18] = a33; s[19] = a43;
    s[20] = a04; s[21] = a14; s[22] = a24; s[23] = a34; s[24] = a44;
}

/* The first ``count`` 64-bit little-endian words of SHAKE-128 of the 8 bytes of ``x``
 * (little-endian): the output is whole lanes, 21 to a block. */
static void shake128_words(uint64_t x, uint64_t *out, int count) {
    uint64_t s[25];
    memset(s, 0, sizeof s);
    s[0] = x;
    s[1] = 0x1FULL;                /* SHAKE's domain bits and the first padding bit */
    s[20] ^= 0x8000000000000000ULL; /* the last bit of the 168-byte block */
    int done = 0;
    for (;;) {
        keccak_f(s);
        for (int i = 0; i < 21 && done < count; i++) out[done++] = s[i];
        if (done >= count) return;
    }
}

/* Several SHAKE-128 streams at once, lane by lane in vectors of words (the batched loop deals
 * eight hands together): gcc's vector extensions, eight streams in AVX-512 registers or four
 * in AVX2 registers where the processor has them (chosen at run time), else four in pairs of
 * SSE2 registers (x86-64) or whatever the target has. A permutation of one stream costs
 * 0.25 us alone, 0.095 us in four (AVX2), 0.038 us in eight (AVX-512) on the test machine. */
typedef uint64_t KeccakV4 __attribute__((vector_size(32)));
typedef uint64_t KeccakV8 __attribute__((vector_size(64)));

/* ``count`` words of each of the streams of the numbers ``x`` (a vector type V of them): stream
 * j into ``out + j * MAXC``. */
#define SHAKE_WORDS_X(V, W)                                                                    \
    V s[25];                                                                                   \
    memset(s, 0, sizeof s);                                                                    \
    for (int j = 0; j < (W); j++) s[0][j] = x[j];                                              \
    s[1] = s[1] + 0x1F;                                                                        \
    s[20] = s[20] + 0x8000000000000000ULL;                                                     \
    int done = 0;                                                                              \
    for (;;) {                                                                                 \
        V a00 = s[0], a10 = s[1], a20 = s[2], a30 = s[3], a40 = s[4];                          \
        V a01 = s[5], a11 = s[6], a21 = s[7], a31 = s[8], a41 = s[9];                          \
        V a02 = s[10], a12 = s[11], a22 = s[12], a32 = s[13], a42 = s[14];                     \
        V a03 = s[15], a13 = s[16], a23 = s[17], a33 = s[18], a43 = s[19];                     \
        V a04 = s[20], a14 = s[21], a24 = s[22], a34 = s[23], a44 = s[24];                     \
        V e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42;           \
        V e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;                                    \
        for (int r = 0; r < 24; r += 2) {                                                      \
            KROUND(a, e, KECCAK_RC[r])                                                         \
            KROUND(e, a, KECCAK_RC[r + 1])                                                     \
        }                                                                                      \
        s[0] = a00, s[1] = a10, s[2] = a20, s[3] = a30, s[4] = a40;                            \
        s[5] = a01, s[6] = a11, s[7] = a21, s[8] = a31, s[9] = a41;                            \
        s[10] = a02, s[11] = a12, s[12] = a22, s[13] = a32, s[14] = a42;                       \
        s[15] = a03, s[16] = a13, s[17] = a23, s[18] = a33, s[19] = a43;                       \
        s[20] = a04, s[21] = a14, s[22] = a24, s[23] = a34, s[24] = a44;                       \
        for (int i = 0; i < 21 && done < count; i++, done++)                                   \
            for (int j = 0; j < (W); j++) out[j * MAXC + done] = s[i][j];                      \
        if (done >= count) return;                                                             \
    }

static void shake128_words_x4(const uint64_t *x, uint64_t *out, int count) { SHAKE_WORDS_X(KeccakV4, 4) }

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define KECCAK_X86 1
__attribute__((target("avx2"))) static void shake128_words_x4_avx2(const uint64_t *x, uint64_t *out,
                                                                   int count) {
    SHAKE_WORDS_X(KeccakV4, 4)
}
__attribute__((target("avx512f"))) static void shake128_words_x8_avx512(const uint64_t *x, uint64_t *out,
                                                                        int count) {
    SHAKE_WORDS_X(KeccakV8, 8)
}
#endif

/* The vector units shake128_words_x8 may use here: 2 AVX-512, 1 AVX2, 0 neither. */
static int simd_level(void) {
#ifdef KECCAK_X86
    static int level = -1;
    if (level < 0) level = __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
    return level;
#else
    return 0;
#endif
}

/* shake128_words for each of the eight numbers ``x``: stream j into ``out + j * MAXC``, with the
 * vector units of ``level`` (at most simd_level()). */
static void shake128_words_x8_at(int level, const uint64_t x[8], uint64_t *out, int count) {
#ifdef KECCAK_X86
    if (level == 2) {
        shake128_words_x8_avx512(x, out, count);
        return;
    }
    if (level == 1) {
        shake128_words_x4_avx2(x, out, count);
        shake128_words_x4_avx2(x + 4, out + 4 * MAXC, count);
        return;
    }
#endif
    (void)level;
    shake128_words_x4(x, out, count);
    shake128_words_x4(x + 4, out + 4 * MAXC, count);
}

static void shake128_words_x8(const uint64_t x[8], uint64_t *out, int count) {
    shake128_words_x8_at(simd_level(), x, out, count);
}

/* engine._shuffle's sort: each card's key keeps 44 random bits of its SHAKE-128 word above the
 * card in the lowest byte (``keys`` holds the words and is overwritten). */
static void sort_on_keys(uint64_t *keys, uint8_t *cards, int len) {
    /* a radix sort on the top 14 random bits, least significant 7 first (both counts in one
     * pass), then insertion sort, entered only where two keys share those 14 bits and are out of
     * place (about once in six decks) */
    uint64_t tmp[MAXC], sorted[MAXC];
    uint32_t lo[128], hi[128];
    memset(lo, 0, sizeof lo);
    memset(hi, 0, sizeof hi);
    for (int i = 0; i < len; i++) {
        uint64_t k = (keys[i] & 0x000FFFFFFFFFFF00ULL) | cards[i];
        keys[i] = k;
        lo[(k >> 38) & 127]++;
        hi[k >> 45]++;
    }
    uint32_t sum_lo = 0, sum_hi = 0;
    for (int b = 0; b < 128; b++) {
        uint32_t c = lo[b], d = hi[b];
        lo[b] = sum_lo;
        hi[b] = sum_hi;
        sum_lo += c;
        sum_hi += d;
    }
    for (int i = 0; i < len; i++) tmp[lo[(keys[i] >> 38) & 127]++] = keys[i];
    for (int i = 0; i < len; i++) sorted[hi[tmp[i] >> 45]++] = tmp[i];
    for (int i = 1; i < len; i++) {
        uint64_t k = sorted[i];
        if (sorted[i - 1] > k) {
            int j = i - 1;
            do {
                sorted[j + 1] = sorted[j];
                j--;
            } while (j >= 0 && sorted[j] > k);
            sorted[j + 1] = k;
        }
    }
    for (int i = 0; i < len; i++) cards[i] = (uint8_t)sorted[i];
}

/* engine._shuffle: SHAKE-128 of the generator's next number, one word a card, then the sort. */
static void shuffle_cards(uint64_t *rng, uint8_t *cards, int len) {
    uint64_t keys[MAXC];
    if (len <= 0) return;
    shake128_words(next_random(rng), keys, len);
    sort_on_keys(keys, cards, len);
}

/* The "fast" deals of the batched loops: a Fisher-Yates shuffle from the same SplitMix64 state,
 * each index by Lemire's multiply-shift (bias below 2**-57). Not the Python engine's shuffle:
 * other deals, as random: 3.4 k instructions a deck, against 45 k for SHAKE-128's keys one deck
 * at a time and about 12 k in the batched loop's groups of eight (shake128_words_x8). */
static void shuffle_fast(uint64_t *rng, uint8_t *cards, int len) {
    for (int i = len - 1; i > 0; i--) {
        uint64_t x = next_random(rng);
        int j = (int)(((unsigned __int128)x * (uint64_t)(i + 1)) >> 64);
        uint8_t c = cards[i];
        cards[i] = cards[j];
        cards[j] = c;
    }
}

static inline void shuffle_state(UState *st, uint8_t *cards, int len) {
    if (st->fast)
        shuffle_fast(&st->rng, cards, len);
    else
        shuffle_cards(&st->rng, cards, len);
}

static uint64_t seed_to_rng(uint64_t seed) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    return x ? x : 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Moving cards between segments. */

/* Sixteen bytes as one vector (gcc's vector extensions: SSE2 on x86-64, whatever the target has),
 * for the card moves below: their lengths vary from move to move, so a branch per length class
 * is a coin toss to the processor; two blended vectors are not. */
typedef uint8_t Bytes16 __attribute__((vector_size(16)));
typedef int8_t Lanes16 __attribute__((vector_size(16)));
static const Lanes16 LANE16 = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* ``a[0 .. len)`` = ``a[k .. k + len)`` (0 <= len < 32, 1 <= k <= 16), the bytes from ``a + len``
 * to ``a + 32`` kept: two vectors, each loaded, blended with the bytes it replaces and stored (so
 * up to 32 + k bytes from ``a`` are read, 32 written back; callers keep them inside their struct). */
static inline void down_under32(uint8_t *a, int len, int k) {
    Bytes16 src, old;
    memcpy(&src, a + k, 16);
    memcpy(&old, a, 16);
    Bytes16 m = (Bytes16)(LANE16 < (int8_t)len);
    src = (src & m) | (old & ~m);
    memcpy(a, &src, 16);
    memcpy(&src, a + 16 + k, 16);
    memcpy(&old, a + 16, 16);
    m = (Bytes16)(LANE16 < (int8_t)(len - 16));
    src = (src & m) | (old & ~m);
    memcpy(a + 16, &src, 16);
}

/* ``st->cards[p .. p + len)`` = ``st->cards[p + k .. p + k + len)`` (1 <= k <= 16): sixteen bytes at
 * a time, then down_under32. Its vectors may read up to 48 bytes past the cards and write back
 * 32, into ``known`` (the struct's next field, asserted above): addressed from the struct, not
 * the array. */
static inline void cards_down(UState *st, int p, int len, int k) {
    uint8_t *a = (uint8_t *)st + offsetof(UState, cards) + p;
    for (; len >= 32; len -= 16, a += 16) {
        Bytes16 w;
        memcpy(&w, a + k, 16);
        memcpy(a, &w, 16);
    }
    down_under32(a, len, k);
}

static inline void cards_down1(UState *st, int p, int len) { cards_down(st, p, len, 1); }

/* ``st->known[p .. p + len)`` = ``st->known[p + 1 .. p + len]`` (while some card is known): the
 * same blended vectors as the cards' where they stay inside the struct (``known`` is its last
 * field: up to 34 bytes read past the masks moved), else memmove. */
static inline void known_down1(UState *st, int p, int len) {
    size_t room = sizeof(UState) - offsetof(UState, known);
    if (2 * (size_t)(p + len) + 34 > room) {
        memmove(st->known + p, st->known + p + 1, (size_t)len * 2);
        return;
    }
    uint8_t *a = (uint8_t *)st + offsetof(UState, known) + 2 * p;
    int bytes = 2 * len;
    for (; bytes >= 32; bytes -= 16, a += 16) {
        Bytes16 w;
        memcpy(&w, a + 2, 16);
        memcpy(a, &w, 16);
    }
    down_under32(a, bytes, 2);
}

/* ``st->start[k] += delta`` for ``from <= k <= to`` (to < MAXP + 3): one vector over the 13 starts
 * and the 3 cards after them, which get 0 (written back as they were). */
static inline void starts_add(UState *st, int from, int to, int delta) {
    uint8_t *s = (uint8_t *)st + offsetof(UState, start);
    Bytes16 v;
    memcpy(&v, s, 16);
    v += (Bytes16)((LANE16 >= (int8_t)from) & (LANE16 <= (int8_t)to)) & (uint8_t)delta;
    memcpy(s, &v, 16);
}

/* The ``len`` bytes at ``a`` one place up to ``a + 1`` (the rare move of a card to an earlier segment):
 * eight bytes a load from the top down, the first eight loaded first and stored last; shorter
 * moves as two overlapping words loaded before either is stored. */
static inline void bytes_up1(uint8_t *a, int len) {
    if (len >= 8) {
        uint64_t first, w;
        memcpy(&first, a, 8);
        for (int i = len; i >= 8; i -= 8) {
            memcpy(&w, a + i - 8, 8);
            memcpy(a + i - 7, &w, 8);
        }
        memcpy(a + 1, &first, 8);
    } else if (len >= 4) {
        uint32_t x, y;
        memcpy(&x, a, 4);
        memcpy(&y, a + len - 4, 4);
        memcpy(a + 1, &x, 4);
        memcpy(a + len - 3, &y, 4);
    } else if (len >= 2) {
        uint16_t x, y;
        memcpy(&x, a, 2);
        memcpy(&y, a + len - 2, 2);
        memcpy(a + 1, &x, 2);
        memcpy(a + len - 1, &y, 2);
    } else if (len == 1) {
        a[1] = a[0];
    }
}

/* The card at ``p`` (in segment ``a``) goes to the end of segment ``b``, knowing no one. */
static inline void move_to_end(UState *st, int p, int a, int b) {
    uint8_t c = st->cards[p];
    if (a < b) {
        int e = st->start[b + 1];
        cards_down1(st, p, e - p - 1);
        if (st->any_known) known_down1(st, p, e - p - 1);
        st->cards[e - 1] = c;
        st->known[e - 1] = 0;
        starts_add(st, a + 1, b, -1);
    } else if (a > b) {
        int e = st->start[b + 1];
        bytes_up1(st->cards + e, p - e);
        if (st->any_known) memmove(st->known + e + 1, st->known + e, (size_t)(p - e) * 2);
        st->cards[e] = c;
        st->known[e] = 0;
        for (int k = b + 1; k <= a; k++) st->start[k]++;
    }
}

/* The card at ``p`` (in segment ``a``: the draw pile or a hand) goes on the discard pile, which
 * is kept top first, right after the hands: only the cards between move, never the piles. */
static inline void move_to_discard(UState *st, int p, int a) {
    int d = SEG_DISCARD(st), e = st->start[d];
    uint8_t c = st->cards[p];
    cards_down1(st, p, e - p - 1);
    if (st->any_known) known_down1(st, p, e - p - 1);
    st->cards[e - 1] = c;
    st->known[e - 1] = 0;
    starts_add(st, a + 1, d, -1);
}

/* engine._reshuffle: the discard pile but its top card becomes the draw pile (called only when
 * the draw pile is empty). */
static int reshuffle(UState *st) {
    int ds = st->start[SEG_DISCARD(st)];
    int m = st->ncards - ds - 1;
    if (m <= 0) return 0;
    uint8_t tmp[MAXC];
    for (int i = 0; i < m; i++) tmp[i] = st->cards[st->ncards - 1 - i]; /* bottom first, as Python */
    shuffle_state(st, tmp, m);
    /* [hands | top, rest of the discard pile] -> [tmp | hands | top] */
    uint8_t top = st->cards[ds];
    memmove(st->cards + m, st->cards, (size_t)ds);
    memmove(st->known + m, st->known, (size_t)ds * 2);
    memcpy(st->cards, tmp, (size_t)m);
    memset(st->known, 0, (size_t)m * 2);
    for (int k = 1; k <= SEG_DISCARD(st); k++) st->start[k] = (uint8_t)(st->start[k] + m);
    st->cards[st->ncards - 1] = top;
    st->known[st->ncards - 1] = 0;
    return 1;
}

/* engine._draw_cards */
static int draw_cards(UState *st, int seat, int k) {
    int got = 0, d = DRAW_LEN(st);
    if (k > 1 && k <= 16 && d >= k) { /* k moves of move_to_end at once: the hands between move by k */
        int e = st->start[seat + 2];
        uint8_t top[16];
        for (int i = 0; i < k; i++) top[i] = st->cards[d - 1 - i];
        cards_down(st, d - k, e - d, k);
        if (st->any_known) memmove(st->known + d - k, st->known + d, (size_t)(e - d) * 2);
        for (int i = 0; i < k; i++) {
            st->cards[e - k + i] = top[i];
            st->known[e - k + i] = 0;
        }
        starts_add(st, 1, seat + 1, -k);
        got = k;
    }
    while (got < k) {
        if (DRAW_LEN(st) == 0 && !reshuffle(st)) break;
        move_to_end(st, DRAW_LEN(st) - 1, 0, seat + 1);
        got++;
    }
    if (got) {
        st->exposed &= (uint16_t)~(1u << seat);
        st->drew_facing[seat] = -1;
    }
    return got;
}

/* The first place in [p, e) that holds card ``t``, else ``e``: eight cards a word (the first zero
 * byte of the word xor ``t`` in every byte; the cards past ``e`` that a word may read, at most
 * seven, are the struct's, see cards_down1). */
static inline int find_card(const UState *st, int p, int e, int t) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    const uint8_t *a = (const uint8_t *)st + offsetof(UState, cards);
    for (; p < e; p += 8) {
        uint64_t w;
        memcpy(&w, a + p, 8);
        w ^= ones * (uint64_t)t;
        uint64_t zero = (w - ones) & ~w & highs; /* its lowest bit is the first zero byte's */
        if (zero) {
            int q = p + (__builtin_ctzll(zero) >> 3);
            return q < e ? q : e;
        }
    }
    return e;
}

/* ``seat`` plays its first copy of ``t`` onto the discard pile; whoever knew a copy of ``t`` in
 * that hand knows one fewer (engine._forget). */
static inline void play_from_hand(UState *st, int seat, int t) {
    int e = HAND_END(st, seat), p = find_card(st, HAND_BEGIN(st, seat), e, t);
    if (st->any_known) {
        uint16_t done = st->known[p];
        for (int q = find_card(st, p + 1, e, t); q < e; q = find_card(st, q + 1, e, t)) {
            uint16_t c = st->known[q] & (uint16_t)~done;
            st->known[q] &= (uint16_t)~c;
            done |= c;
        }
    }
    move_to_discard(st, p, seat + 1);
}

/* engine._reveal: ``owner``'s whole hand becomes known to the seats of ``viewers``. */
static void reveal(UState *st, int owner, uint16_t viewers) {
    int b = HAND_BEGIN(st, owner), e = HAND_END(st, owner);
    for (int p = b; p < e; p++) st->known[p] |= viewers;
    if (viewers) st->any_known = 1;
}

static inline uint16_t all_but(int n, int seat) { return (uint16_t)(((1u << n) - 1) & ~(1u << seat)); }

static int holds_color(const Tables *tb, const UState *st, int seat, int color) {
    int b = HAND_BEGIN(st, seat), e = HAND_END(st, seat);
    for (int p = b; p < e; p++) {
        int t = st->cards[p];
        if (tb->color[t] == color && !tb->wild[t]) return 1;
    }
    return 0;
}

static int holds(const UState *st, int seat, int t) {
    int b = HAND_BEGIN(st, seat), e = HAND_END(st, seat);
    for (int p = b; p < e; p++)
        if (st->cards[p] == t) return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Making a state (engine._empty_state, new_hand, _deal, _turn_first_card). */

static void empty_state(const Tables *tb, UState *st, uint64_t rng) {
    memset(st, 0, sizeof *st);
    st->n = (int8_t)tb->n;
    st->ncards = (uint8_t)tb->ndeck;
    st->color = -1;
    st->current = 0;
    st->direction = 1;
    st->dealer = (int8_t)(tb->n - 1);
    st->phase = P_TURN;
    st->drawn = -1;
    for (int s = 0; s < MAXP; s++) st->drew_facing[s] = -1;
    st->after_color = -1;
    st->pend_card = -1;
    st->pend_from = -1;
    st->pend_color = -1;
    st->winner = -1;
    st->hand_points = -1;
    st->rng = rng;
}

/* engine._choose_dealer's draw among ``cand`` (the birthday part is done by the glue). */
static int choose_dealer(const Tables *tb, UState *st, int *cand, int ncand) {
    uint8_t deck[MAXC];
    int len = tb->ndeck;
    memcpy(deck, tb->deck, (size_t)len);
    shuffle_state(st, deck, len);
    for (;;) {
        int value[MAXP], best = -1;
        for (int i = 0; i < ncand; i++) {
            if (len == 0) {
                len = tb->ndeck;
                memcpy(deck, tb->deck, (size_t)len);
                shuffle_state(st, deck, len);
            }
            int c = deck[--len];
            value[i] = (c < 60 && c % 15 <= 9) ? c % 15 : 0;
            if (value[i] > best) best = value[i];
        }
        int k = 0;
        for (int i = 0; i < ncand; i++)
            if (value[i] == best) cand[k++] = cand[i];
        ncand = k;
        if (ncand == 1) return cand[0];
    }
}

static int turn_first_card(const Tables *tb, UState *st) {
    int n = st->n, first = (st->dealer + 1) % n, t = -1, fx = 0;
    int tries = 4 * DRAW_LEN(st) + 8, ok = 0;
    for (int i = 0; i < tries; i++) {
        int len = DRAW_LEN(st);
        if (len == 0) return -1;
        t = st->cards[len - 1];
        fx = tb->effect[t];
        if (fx == E_WD4 || fx == E_HOWLER || fx == E_INVIS || fx == E_BLANK) {
            int k = len - 1, at = k - k / 2; /* floor(k/2) cards above it */
            memmove(st->cards + at + 1, st->cards + at, (size_t)(k - at));
            st->cards[at] = (uint8_t)t;
            continue;
        }
        ok = 1;
        break;
    }
    if (!ok) return -2;
    move_to_discard(st, DRAW_LEN(st) - 1, 0);
    st->direction = 1;
    if (fx == E_WILD || fx == E_MATER) {
        st->color = -1;
        st->phase = P_CHOOSE_COLOR;
        st->current = (int8_t)first;
        st->after_color = (int8_t)first;
        return 0;
    }
    st->color = tb->color[t];
    if (fx == E_SKIP) {
        st->current = (int8_t)((first + 1) % n);
    } else if (fx == E_REVERSE) {
        st->direction = -1;
        st->current = st->dealer;
    } else if (fx == E_DRAW) {
        draw_cards(st, first, tb->draw_amount);
        st->current = (int8_t)((first + 1) % n);
    } else {
        st->current = (int8_t)first;
    }
    return 0;
}

/* engine._deal from ``deck`` (top card first). */
static int deal_deck(const Tables *tb, UState *st, const uint8_t *deck, int dealer) {
    int n = tb->n, dealt = 7 * n, nd = tb->ndeck, pos = 0;
    st->dealer = (int8_t)dealer;
    for (int i = nd - 1; i >= dealt; i--) st->cards[pos++] = deck[i];
    st->start[0] = 0;
    st->start[1] = (uint8_t)pos;
    for (int s = 0; s < n; s++) {
        int j = mod_seat(s - dealer - 1, n);
        for (int i = j; i < dealt; i += n) st->cards[pos++] = deck[i];
        st->start[s + 2] = (uint8_t)pos;
    }
    st->start[n + 2] = (uint8_t)nd;
    return turn_first_card(tb, st);
}

/* engine.new_hand; ``dealer`` < 0: drawn among the ``ncand`` seats of ``cand``. */
static int new_hand(const Tables *tb, UState *st, uint64_t seed, int dealer, int *cand, int ncand, int fast) {
    uint8_t deck[MAXC];
    empty_state(tb, st, seed_to_rng(seed));
    st->fast = (uint8_t)fast;
    if (dealer < 0) dealer = choose_dealer(tb, st, cand, ncand);
    memcpy(deck, tb->deck, (size_t)tb->ndeck);
    shuffle_state(st, deck, tb->ndeck);
    return deal_deck(tb, st, deck, dealer);
}

/* The number SHAKE-128 reads for the deck of new_hand(seed) with a dealer given (its shuffle). */
static uint64_t deal_shake_input(uint64_t seed) {
    uint64_t rng = seed_to_rng(seed);
    return next_random(&rng);
}

/* new_hand(tb, st, seed, dealer, ...) with a dealer given (>= 0) and engine deals, the deck's
 * SHAKE-128 words already made (``keys``: deal_shake_input(seed)'s, tb->ndeck of them; used up). */
static int new_hand_keyed(const Tables *tb, UState *st, uint64_t seed, int dealer, uint64_t *keys) {
    uint8_t deck[MAXC];
    empty_state(tb, st, seed_to_rng(seed));
    next_random(&st->rng);
    memcpy(deck, tb->deck, (size_t)tb->ndeck);
    sort_on_keys(keys, deck, tb->ndeck);
    return deal_deck(tb, st, deck, dealer);
}

/* ------------------------------------------------------------------------------------------ */
/* Legal actions (engine.legal_ids). */

static inline int add_play_ids(const Tables *tb, int *out, int k, int seat, int t, int two) {
    for (int u = 0; u <= two; u++) {
        if (t == C_HOWLER) {
            for (int s = 0; s < tb->n; s++)
                if (s != seat) out[k++] = tb->play_id[t][u][s + 1];
        } else if (tb->wild[t] && t != C_MATER) {
            for (int c = 0; c < 4; c++) out[k++] = tb->play_id[t][u][c + 1];
        } else {
            out[k++] = tb->play_id[t][u][0];
        }
    }
    return k;
}

/* The card types ``seat`` holds that it may play now (phase turn): types 0-63 as bits, and
 * whether Mater (64) is one; without a branch per card (which card plays is a coin toss to the
 * processor's predictor). */
static inline uint64_t playable_bits(const Tables *tb, const UState *st, int seat, int *mater) {
    const uint8_t *ok = tb->playable[(st->color + 1) * NT + TOP(st)];
    uint64_t bits = 0;
    int m = 0;
    for (int p = HAND_BEGIN(st, seat); p < HAND_END(st, seat); p++) {
        int t = st->cards[p];
        uint64_t o = ok[t];
        bits |= (o & (uint64_t)(1 - (t >> 6))) << (t & 63);
        m |= (int)o & (t >> 6);
    }
    *mater = m;
    return bits;
}

static int legal_ids(const Tables *tb, const UState *st, int seat, int *out) {
    int k = 0;
    if (seat == st->current) {
        int len = HAND_LEN(st, seat), two = len == 2;
        switch (st->phase) {
        case P_TURN: { /* draw first, then the plays by card type */
            int mater;
            uint64_t bits = playable_bits(tb, st, seat, &mater);
            out[k++] = tb->draw_id;
            while (bits) {
                int t = __builtin_ctzll(bits);
                bits &= bits - 1;
                k = add_play_ids(tb, out, k, seat, t, two);
            }
            if (mater) k = add_play_ids(tb, out, k, seat, C_MATER, two);
            break;
        }
        case P_AFTER_DRAW:
            k = add_play_ids(tb, out, k, seat, st->drawn, two);
            if (!tb->must_play_drawn) out[k++] = tb->pass_id;
            break;
        case P_CHOOSE_COLOR:
            for (int c = 0; c < 4; c++) out[k++] = tb->color_id[c];
            break;
        default: /* respond */
            out[k++] = tb->accept_id;
            if (st->pend_card == C_WD4) out[k++] = tb->challenge_id;
            if (tb->rw && holds(st, seat, C_INVIS)) {
                for (int c = 0; c < 4; c++) out[k++] = tb->invis_id[0][c];
                if (two)
                    for (int c = 0; c < 4; c++) out[k++] = tb->invis_id[1][c];
            }
        }
    } else if (seat == TABLE_SEAT) {
        if (st->phase < P_HAND_OVER)
            for (int s = 0; s < st->n; s++) out[k++] = tb->penalize_id[s];
        return k;
    }
    if (st->exposed) {
        for (int x = 0; x < st->n; x++)
            if (st->exposed >> x & 1) out[k++] = x == seat ? tb->uno_id : tb->catch_id[x];
    }
    return k;
}

/* ------------------------------------------------------------------------------------------ */
/* Effects (engine.step and its helpers). */

static void end_hand(const Tables *tb, UState *st, int winner);

static void open_response(UState *st, int victim, int t, int player, int guilty, int prev_color) {
    st->phase = P_RESPOND;
    st->pend_color = (int8_t)prev_color;
    st->current = (int8_t)victim;
    st->pend_card = (int8_t)t;
    st->pend_from = (int8_t)player;
    st->pend_guilty = (int8_t)guilty;
}

static void clear_response(UState *st) {
    st->pend_card = -1;
    st->pend_from = -1;
    st->pend_guilty = 0;
    st->pend_color = -1;
    st->phase = P_TURN;
}

static void ask_color(UState *st, int chooser, int then) {
    st->phase = P_CHOOSE_COLOR;
    st->current = (int8_t)chooser;
    st->after_color = (int8_t)then;
}

static void go_out(const Tables *tb, UState *st, int seat, int t, int fx, int arg) {
    int n = st->n;
    if (fx == E_WILD || fx == E_WD4 || fx == E_INVIS || (fx == E_BLANK && tb->wild[t])) st->color = (int8_t)arg;
    int d = st->direction;
    if (fx == E_BLANK) {
        int c = tb->color[t];
        if (tb->blank_rev[c]) d = st->direction = (int8_t)-d;
        if (tb->blank_draw[c]) draw_cards(st, mod_seat(seat + d, n), tb->blank_draw[c]);
    } else if (fx == E_DRAW) {
        draw_cards(st, mod_seat(seat + d, n), tb->draw_amount);
    } else if (fx == E_WD4) {
        draw_cards(st, mod_seat(seat + d, n), 4);
    } else if (fx == E_REVERSE) {
        st->direction = (int8_t)-d;
    }
    end_hand(tb, st, seat);
}

static void blank_effect(const Tables *tb, UState *st, int seat, int t, int arg) {
    int n = st->n, c = tb->color[t];
    if (tb->blank_wild[c]) st->color = (int8_t)arg;
    if (tb->blank_rev[c]) st->direction = (int8_t)-st->direction;
    int d = st->direction, victim = mod_seat(seat + d, n);
    if (tb->blank_reveal[c]) reveal(st, victim, all_but(n, victim));
    if (tb->blank_draw[c]) draw_cards(st, victim, tb->blank_draw[c]);
    if (tb->blank_skip[c] || (tb->blank_rev[c] && n == 2))
        st->current = (int8_t)mod_seat(victim + d, n);
    else
        st->current = (int8_t)victim;
}

static void hand_points_of(const Tables *tb, const UState *st, int *points) {
    for (int s = 0; s < st->n; s++) {
        int sum = 0;
        for (int p = HAND_BEGIN(st, s); p < HAND_END(st, s); p++) sum += tb->points[st->cards[p]];
        points[s] = sum;
    }
}

/* engine.end_hand */
static void end_hand(const Tables *tb, UState *st, int winner) {
    int n = st->n, points[MAXP], target = tb->target;
    st->winner = (int8_t)winner;
    st->current = -1;
    st->exposed = 0;
    st->drawn = -1;
    st->after_color = -1;
    clear_response(st);
    hand_points_of(tb, st, points);
    st->game_winners = 0;
    if (tb->teams) {
        int team = winner % 2, sum = 0;
        for (int s = 0; s < n; s++)
            if (s % 2 != team) sum += points[s];
        st->hand_points = sum;
        st->scores[team] += sum;
        if (st->scores[team] >= target && (tb->mode == M_PARTNERS || tb->mode == M_TEAMS))
            st->game_winners = (uint16_t)(1u << team);
    } else if (tb->mode == M_CHALLENGE) {
        int sum = 0, standing = 0;
        uint16_t mask = 0;
        for (int s = 0; s < n; s++) {
            st->scores[s] += points[s];
            sum += points[s];
            if (st->scores[s] < target) {
                standing++;
                mask |= (uint16_t)(1u << s);
            }
        }
        st->hand_points = sum;
        if (standing <= 1) st->game_winners = standing ? mask : (uint16_t)(1u << winner);
    } else if (tb->scoring == 1) { /* lowest */
        int sum = 0, hi = 0, lo = 0;
        for (int s = 0; s < n; s++) {
            st->scores[s] += points[s];
            sum += points[s];
        }
        st->hand_points = sum;
        hi = lo = st->scores[0];
        for (int s = 1; s < n; s++) {
            if (st->scores[s] > hi) hi = st->scores[s];
            if (st->scores[s] < lo) lo = st->scores[s];
        }
        if (hi >= target)
            for (int s = 0; s < n; s++)
                if (st->scores[s] == lo) st->game_winners |= (uint16_t)(1u << s);
    } else {
        int sum = 0;
        for (int s = 0; s < n; s++) sum += points[s];
        st->hand_points = sum - points[winner];
        st->scores[winner] += st->hand_points;
        if (st->scores[winner] >= target) st->game_winners = (uint16_t)(1u << winner);
    }
    st->phase = st->game_winners ? P_GAME_OVER : P_HAND_OVER;
}

/* step's play: ``seat`` plays its card ``t`` (``arg``: the colour, the Howler's target or -1;
 * ``uno``: the spelling with UNO), as step(aid) of that play. */
static inline void step_play(const Tables *tb, UState *st, int seat, int t, int arg, int uno) {
    int n = st->n;
    play_from_hand(st, seat, t);
    int left = HAND_LEN(st, seat);
    st->exposed = (left == 1 && !uno) ? (uint16_t)(1u << seat) : 0;
    if (st->phase) {
        st->phase = P_TURN;
        st->drawn = -1;
    }
    int fx = tb->effect[t];
    if (fx == E_NUMBER && left) {
        st->color = tb->color[t];
        st->current = (int8_t)mod_seat(seat + st->direction, n);
        return;
    }
    int prev_color = st->color, c = tb->color[t], d = st->direction;
    if (c >= 0) st->color = (int8_t)c;
    if (left == 0) {
        go_out(tb, st, seat, t, fx, arg);
        return;
    }
    switch (fx) {
    case E_NUMBER:
        st->current = (int8_t)mod_seat(seat + d, n);
        break;
    case E_SKIP: {
        int victim = mod_seat(seat + d, n);
        if (tb->rw) {
            open_response(st, victim, t, seat, 0, prev_color);
            return;
        }
        st->current = (int8_t)mod_seat(victim + d, n);
        break;
    }
    case E_REVERSE:
        d = st->direction = (int8_t)-d;
        if (n == 2) {
            int victim = mod_seat(seat + d, n);
            if (tb->rw) {
                open_response(st, victim, t, seat, 0, prev_color);
                return;
            }
            st->current = (int8_t)seat;
        } else {
            st->current = (int8_t)mod_seat(seat + d, n);
        }
        break;
    case E_DRAW: {
        int victim = mod_seat(seat + d, n);
        if (tb->rw) {
            open_response(st, victim, t, seat, 0, prev_color);
            return;
        }
        draw_cards(st, victim, tb->draw_amount);
        st->current = (int8_t)mod_seat(victim + d, n);
        break;
    }
    case E_WILD:
    case E_INVIS:
        st->color = (int8_t)arg;
        st->current = (int8_t)mod_seat(seat + d, n);
        break;
    case E_WD4: {
        int guilty = prev_color >= 0 && holds_color(tb, st, seat, prev_color);
        st->color = (int8_t)arg;
        open_response(st, mod_seat(seat + d, n), t, seat, guilty, prev_color);
        return;
    }
    case E_HOWLER:
        if (tb->rw) {
            open_response(st, arg, t, seat, 0, prev_color);
            return;
        }
        reveal(st, arg, all_but(n, arg));
        ask_color(st, seat, mod_seat(seat + d, n));
        break;
    case E_MATER:
        for (int other = 0; other < n; other++)
            if (other != seat) reveal(st, other, (uint16_t)(1u << seat));
        ask_color(st, seat, mod_seat(seat + d, n));
        break;
    default:
        blank_effect(tb, st, seat, t, arg);
    }
}

/* step's draw: ``seat`` draws as its turn. */
static inline void step_draw(const Tables *tb, UState *st, int seat) {
    int n = st->n;
    st->exposed = 0;
    int facing = st->drew_facing[seat] = (int16_t)((st->color + 1) * NT + TOP(st));
    if (DRAW_LEN(st) == 0 && !reshuffle(st)) {
        st->current = (int8_t)mod_seat(seat + st->direction, n);
        return;
    }
    int top = st->cards[DRAW_LEN(st) - 1];
    move_to_end(st, DRAW_LEN(st) - 1, 0, seat + 1);
    if (tb->playable[facing][top]) {
        st->phase = P_AFTER_DRAW;
        st->drawn = (int8_t)top;
    } else {
        st->current = (int8_t)mod_seat(seat + st->direction, n);
    }
}

/* engine.step: apply legal action ``aid`` of ``seat`` (nothing is checked here). */
static void step(const Tables *tb, UState *st, int seat, int aid) {
    int kind = tb->a_kind[aid], t = tb->a_card[aid], arg = tb->a_arg[aid], uno = tb->a_uno[aid];
    int n = st->n;
    switch (kind) {
    case K_PLAY:
        step_play(tb, st, seat, t, arg, uno);
        return;
    case K_DRAW:
        step_draw(tb, st, seat);
        return;
    case K_PASS:
        st->phase = P_TURN;
        st->drawn = -1;
        st->drew_facing[seat] = -1;
        st->current = (int8_t)mod_seat(seat + st->direction, n);
        return;
    case K_COLOR:
        st->color = (int8_t)arg;
        st->phase = P_TURN;
        st->current = st->after_color;
        st->after_color = -1;
        return;
    case K_ACCEPT: {
        int pt = st->pend_card, player = st->pend_from, fx = tb->effect[pt], d = st->direction;
        clear_response(st);
        if (fx == E_HOWLER) {
            reveal(st, seat, all_but(n, seat));
            ask_color(st, player, mod_seat(player + d, n));
            return;
        }
        if (fx == E_DRAW)
            draw_cards(st, seat, tb->draw_amount);
        else if (fx == E_WD4)
            draw_cards(st, seat, 4);
        st->current = (int8_t)mod_seat(seat + d, n);
        return;
    }
    case K_CHALLENGE: {
        int offender = st->pend_from, guilty = st->pend_guilty;
        clear_response(st);
        reveal(st, offender, (uint16_t)(1u << seat));
        if (guilty) {
            draw_cards(st, offender, 4);
            st->current = (int8_t)seat;
        } else {
            draw_cards(st, seat, 6);
            st->current = (int8_t)mod_seat(seat + st->direction, n);
        }
        return;
    }
    case K_INVIS: {
        int pt = st->pend_card, player = st->pend_from;
        clear_response(st);
        play_from_hand(st, seat, C_INVIS);
        st->color = (int8_t)arg;
        int left = HAND_LEN(st, seat);
        if (left == 1 && !uno) st->exposed |= (uint16_t)(1u << seat);
        if (left == 0) {
            go_out(tb, st, seat, C_INVIS, E_INVIS, arg);
            return;
        }
        st->current = (int8_t)(pt == C_HOWLER ? mod_seat(player + st->direction, n) : seat);
        return;
    }
    case K_UNO:
        st->exposed &= (uint16_t)~(1u << seat);
        return;
    case K_CATCH:
        st->exposed &= (uint16_t)~(1u << arg);
        draw_cards(st, arg, 2);
        return;
    case K_PENALIZE:
        draw_cards(st, arg, tb->sugg);
        return;
    default:
        return;
    }
}


#endif /* UNOTABLE_RULES_H */
