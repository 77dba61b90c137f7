/* unotable.native._core: the rules of a hand (RULES.md §1-9) in C, for the batched loops.
 *
 * The Python engine (src/unotable/engine.py) is the specification; this file follows it
 * function by function (the names in comments are the Python ones), and the differential tests
 * (tests/test_native*.py) play both side by side. What this core does not know (house rules,
 * lenient plays) the Python glue refuses before a table is built.
 *
 * A state keeps every card of the deck in one array, in segments: the draw pile (bottom first,
 * top last), the hand of each seat in order, the discard pile (bottom first, top last); a card
 * moves between segments with one memmove. Beside each card in a hand, a mask of the seats that
 * know it (Python's ``known``). Randomness is the Python engine's: a SplitMix64 state whose
 * numbers seed SHAKE-128, whose output are the sort keys of a shuffle (engine._shuffle).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXP 10
#define MAXC 112
#define NT 65
#define NAMAX 256
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
} Tables;

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

#define SEG_DISCARD(st) ((st)->n + 1)
#define HAND_BEGIN(st, s) ((st)->start[(s) + 1])
#define HAND_END(st, s) ((st)->start[(s) + 2])
#define HAND_LEN(st, s) (HAND_END(st, s) - HAND_BEGIN(st, s))
#define DRAW_LEN(st) ((st)->start[1])
#define DISCARD_LEN(st) ((st)->ncards - (st)->start[(st)->n + 1])
#define TOP(st) ((st)->cards[(st)->ncards - 1])

static inline int mod_seat(int x, int n) { return ((x % n) + n) % n; }

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
#define ROTL64(x, y) ((y) ? (((x) << (y)) | ((x) >> ((64 - (y)) & 63))) : (x))

/* Keccak-f[1600]: per round, theta's column parities, then rho and pi lane by lane straight into
 * each row of the result, and chi on that row at once. */
#define KECCAK_ROW(y, i0, r0, i1, r1, i2, r2, i3, r3, i4, r4)                                   \
    {                                                                                          \
        uint64_t b0 = ROTL64(A[i0] ^ D[(i0) % 5], r0), b1 = ROTL64(A[i1] ^ D[(i1) % 5], r1),   \
                 b2 = ROTL64(A[i2] ^ D[(i2) % 5], r2), b3 = ROTL64(A[i3] ^ D[(i3) % 5], r3),   \
                 b4 = ROTL64(A[i4] ^ D[(i4) % 5], r4);                                         \
        B[(y) + 0] = b0 ^ (~b1 & b2);                                                          \
        B[(y) + 1] = b1 ^ (~b2 & b3);                                                          \
        B[(y) + 2] = b2 ^ (~b3 & b4);                                                          \
        B[(y) + 3] = b3 ^ (~b4 & b0);                                                          \
        B[(y) + 4] = b4 ^ (~b0 & b1);                                                          \
    }

static void keccak_f(uint64_t A[25]) {
    uint64_t C[5], D[5], B[25];
    for (int r = 0; r < 24; r++) {
        for (int x = 0; x < 5; x++) C[x] = A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20];
        for (int x = 0; x < 5; x++) D[x] = C[(x + 4) % 5] ^ ROTL64(C[(x + 1) % 5], 1);
        KECCAK_ROW(0, 0, 0, 6, 44, 12, 43, 18, 21, 24, 14)
        KECCAK_ROW(5, 3, 28, 9, 20, 10, 3, 16, 45, 22, 61)
        KECCAK_ROW(10, 1, 1, 7, 6, 13, 25, 19, 8, 20, 18)
        KECCAK_ROW(15, 4, 27, 5, 36, 11, 10, 17, 15, 23, 56)
        KECCAK_ROW(20, 2, 62, 8, 55, 14, 39, 15, 41, 21, 2)
        B[0] ^= KECCAK_RC[r];
        memcpy(A, B, sizeof B);
    }
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

/* engine._shuffle: each card's key keeps 44 random bits above the card in the lowest byte. */
static void shuffle_cards(uint64_t *rng, uint8_t *cards, int len) {
    uint64_t keys[MAXC];
    if (len <= 0) return;
    shake128_words(next_random(rng), keys, len);
    for (int i = 0; i < len; i++) keys[i] = (keys[i] & 0x000FFFFFFFFFFF00ULL) | cards[i];
    /* a counting sort on the top 7 random bits, then insertion sort (few inversions left) */
    uint64_t sorted[MAXC];
    uint8_t first[129];
    memset(first, 0, sizeof first);
    for (int i = 0; i < len; i++) first[((keys[i] >> 45) & 0x7F) + 1]++;
    for (int b = 0; b < 128; b++) first[b + 1] = (uint8_t)(first[b + 1] + first[b]);
    for (int i = 0; i < len; i++) sorted[first[(keys[i] >> 45) & 0x7F]++] = keys[i];
    for (int i = 1; i < len; i++) {
        uint64_t k = sorted[i];
        int j = i - 1;
        while (j >= 0 && sorted[j] > k) {
            sorted[j + 1] = sorted[j];
            j--;
        }
        sorted[j + 1] = k;
    }
    memcpy(keys, sorted, (size_t)len * sizeof(uint64_t));
    for (int i = 0; i < len; i++) cards[i] = (uint8_t)(keys[i] & 0xFF);
}

/* The "fast" deals of the batched loops: a Fisher-Yates shuffle from the same SplitMix64 state,
 * each index by Lemire's multiply-shift (bias below 2**-57). Not the Python engine's shuffle:
 * other deals, as random, at a fiftieth of the cost of SHAKE-128's keys. */
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

/* The card at ``p`` (in segment ``a``) goes to the end of segment ``b``, knowing no one. */
static void move_to_end(UState *st, int p, int a, int b) {
    uint8_t c = st->cards[p];
    if (a < b) {
        int e = st->start[b + 1];
        memmove(st->cards + p, st->cards + p + 1, (size_t)(e - p - 1));
        if (st->any_known) memmove(st->known + p, st->known + p + 1, (size_t)(e - p - 1) * 2);
        st->cards[e - 1] = c;
        st->known[e - 1] = 0;
        for (int k = a + 1; k <= b; k++) st->start[k]--;
    } else if (a > b) {
        int e = st->start[b + 1];
        memmove(st->cards + e + 1, st->cards + e, (size_t)(p - e));
        if (st->any_known) memmove(st->known + e + 1, st->known + e, (size_t)(p - e) * 2);
        st->cards[e] = c;
        st->known[e] = 0;
        for (int k = b + 1; k <= a; k++) st->start[k]++;
    }
}

/* engine._reshuffle: the discard pile but its top card becomes the draw pile (called only when
 * the draw pile is empty). */
static int reshuffle(UState *st) {
    int ds = st->start[SEG_DISCARD(st)];
    int m = st->ncards - ds - 1;
    if (m <= 0) return 0;
    uint8_t tmp[MAXC];
    memcpy(tmp, st->cards + ds, (size_t)m);
    shuffle_state(st, tmp, m);
    /* [hands | discard (m + 1)] -> [tmp | hands | top] */
    uint8_t top = st->cards[st->ncards - 1];
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
    int got = 0;
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

/* ``seat`` plays its first copy of ``t`` onto the discard pile; whoever knew a copy of ``t`` in
 * that hand knows one fewer (engine._forget). */
static void play_from_hand(UState *st, int seat, int t) {
    int b = HAND_BEGIN(st, seat), e = HAND_END(st, seat), p = b;
    while (p < e && st->cards[p] != t) p++;
    if (st->any_known) {
        uint16_t done = st->known[p];
        for (int q = p + 1; q < e; q++) {
            if (st->cards[q] == t) {
                uint16_t c = st->known[q] & (uint16_t)~done;
                st->known[q] &= (uint16_t)~c;
                done |= c;
            }
        }
    }
    move_to_end(st, p, seat + 1, SEG_DISCARD(st));
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
    move_to_end(st, DRAW_LEN(st) - 1, 0, SEG_DISCARD(st));
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

static int legal_ids(const Tables *tb, const UState *st, int seat, int *out) {
    int k = 0;
    if (seat == st->current) {
        int len = HAND_LEN(st, seat), two = len == 2;
        switch (st->phase) {
        case P_TURN: {
            const uint8_t *ok = tb->playable[(st->color + 1) * NT + TOP(st)];
            uint64_t seen = 0; /* card types 0..63; 64 (Mater) by seen64 */
            int seen64 = 0;
            out[k++] = tb->draw_id;
            for (int p = HAND_BEGIN(st, seat); p < HAND_END(st, seat); p++) {
                int t = st->cards[p];
                if (!ok[t]) continue;
                if (t < 64) {
                    if (seen >> t & 1) continue;
                    seen |= 1ULL << t;
                } else {
                    if (seen64) continue;
                    seen64 = 1;
                }
                k = add_play_ids(tb, out, k, seat, t, two);
            }
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

/* engine.step: apply legal action ``aid`` of ``seat`` (nothing is checked here). */
static void step(const Tables *tb, UState *st, int seat, int aid) {
    int kind = tb->a_kind[aid], t = tb->a_card[aid], arg = tb->a_arg[aid], uno = tb->a_uno[aid];
    int n = st->n;
    switch (kind) {
    case K_PLAY: {
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
        return;
    }
    case K_DRAW: {
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
        return;
    }
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

/* ------------------------------------------------------------------------------------------ */
/* Policies for the batched loops. */

typedef struct {
    uint64_t s;
} Picker;

static inline uint32_t pick_word(Picker *p) { return (uint32_t)(next_random(&p->s) >> 32); }

enum { POL_RANDOM, POL_PLAYS_FIRST, POL_GREEDY };

/* The out-of-turn options the random policies decline (uno, catch, wrong, penalize), and the
 * plain spelling of a play whose ``uno`` spelling is legal too (the policies always call UNO). */
static int eligible(const Tables *tb, const int *ids, int k, int *out) {
    int m = 0, has_uno = 0;
    for (int i = 0; i < k; i++)
        if (tb->a_uno[ids[i]]) has_uno = 1;
    for (int i = 0; i < k; i++) {
        int a = ids[i], kind = tb->a_kind[a];
        if (kind == K_UNO || kind == K_CATCH || kind == K_WRONG || kind == K_PENALIZE) continue;
        if (has_uno && (kind == K_PLAY || kind == K_INVIS) && !tb->a_uno[a]) continue;
        out[m++] = a;
    }
    return m;
}

static int color_counts_hand(const Tables *tb, const UState *st, int seat, int skip_one, int *counts, int *points) {
    int skipped = 0;
    for (int c = 0; c < 4; c++) counts[c] = points[c] = 0;
    for (int p = HAND_BEGIN(st, seat); p < HAND_END(st, seat); p++) {
        int t = st->cards[p];
        if (t == skip_one && !skipped) {
            skipped = 1;
            continue;
        }
        int c = tb->color[t];
        if (c >= 0) {
            counts[c]++;
            points[c] += tb->points[t];
        }
    }
    return 0;
}

static int partners(const Tables *tb, int a, int b) { return a == b || (tb->teams && a % 2 == b % 2); }

/* The unseen cards of ``seat`` per colour: the deck less its hand, the discard pile and the
 * cards it knows in other hands (determinize.unseen_cards). */
static void unseen_colors(const Tables *tb, const UState *st, int seat, int *unseen, int *total) {
    int tot = 0;
    for (int c = 0; c < 4; c++) unseen[c] = 0;
    int b = HAND_BEGIN(st, seat), e = HAND_END(st, seat), ds = st->start[SEG_DISCARD(st)];
    for (int p = 0; p < st->ncards; p++) {
        int in_hand = p >= b && p < e;
        int known = p >= DRAW_LEN(st) && p < ds && (st->known[p] >> seat & 1);
        if (in_hand || p >= ds || known) continue;
        tot++;
        int c = tb->color[st->cards[p]];
        if (c >= 0) unseen[c]++;
    }
    *total = tot;
}

/* base.color_ranking's first: most held (less what ``avoid`` is known to hold), most points,
 * fewest unseen, lowest colour. */
static int best_color(const Tables *tb, const UState *st, int seat, int skip_one, int avoid) {
    int counts[4], points[4], unseen[4], total, known[4] = {0, 0, 0, 0};
    color_counts_hand(tb, st, seat, skip_one, counts, points);
    unseen_colors(tb, st, seat, unseen, &total);
    if (avoid >= 0) {
        for (int p = HAND_BEGIN(st, avoid); p < HAND_END(st, avoid); p++) {
            int c = tb->color[st->cards[p]];
            if (c >= 0 && (st->known[p] >> seat & 1)) known[c]++;
        }
    }
    int best = 0;
    for (int c = 1; c < 4; c++) {
        int kb = counts[best] * 4 - known[best] * 3, kc = counts[c] * 4 - known[c] * 3;
        if (kc > kb || (kc == kb && (points[c] > points[best] || (points[c] == points[best] && unseen[c] < unseen[best]))))
            best = c;
    }
    return best;
}

typedef struct {
    int bluff_below;
    double bluff_prior, challenge_threshold, action_bias;
} GreedyParams;

static const GreedyParams GREEDY = {1, 0.3, 0.35, 1.0};

/* GreedyBot.card_score */
static double card_score(const Tables *tb, const UState *st, int me, int t, const GreedyParams *g) {
    int n = st->n, len = HAND_LEN(st, me), nxt = mod_seat(me + st->direction, n);
    int nxt_opp = !partners(tb, me, nxt), nxt_size = HAND_LEN(st, nxt), threat = 99;
    for (int s = 0; s < n; s++)
        if (!partners(tb, me, s) && HAND_LEN(st, s) < threat) threat = HAND_LEN(st, s);
    int counts[4], points[4];
    color_counts_hand(tb, st, me, -1, counts, points);
    if (len == 1) return 0.0;
    if (tb->wild[t]) {
        if (t == C_INVIS) return len > 2 ? -300.0 : -95.0;
        if (t == C_WD4) {
            int bluff = st->color >= 0 && counts[(int)st->color] > 0;
            if (bluff) return (nxt_opp && nxt_size <= g->bluff_below) ? 60.0 : -1000.0;
            return -80.0 + ((nxt_opp && nxt_size <= 2) ? 60.0 : 0.0);
        }
        if (t == C_HOWLER) return -90.0;
        return -100.0;
    }
    int c = tb->color[t], value = t % 15;
    double score = 10.0 * counts[c] + tb->points[t] * (threat <= 2 ? 1.0 : 0.2);
    int hits = value == 10 || value == 12 || value == 13 || (value == 11 && n == 2);
    if (value == 14) hits = tb->blank_skip[c] || tb->blank_draw[c] > 0;
    if (hits) {
        if (nxt_opp) {
            score += g->action_bias * (nxt_size <= 2 ? 25.0 : 4.0);
            if (value == 12 || value == 13) score += g->action_bias * 3.0;
        } else {
            score -= 30.0;
        }
    } else if (value == 11 && n > 2) {
        int prev = mod_seat(me - st->direction, n);
        if (nxt_opp && nxt_size <= 2 && HAND_LEN(st, prev) > nxt_size) score += g->action_bias * 15.0;
    }
    return score;
}

/* GreedyBot.play_card: the way to play ``t`` among ``ids``. */
static int greedy_play(const Tables *tb, const UState *st, int me, int t, const int *ids, int k) {
    int ways[MAXP * 2], m = 0;
    for (int i = 0; i < k; i++)
        if (tb->a_kind[ids[i]] == K_PLAY && tb->a_card[ids[i]] == t) ways[m++] = ids[i];
    /* the bots always call UNO: keep the spellings with ``uno`` when there are some */
    int u = 0;
    for (int i = 0; i < m; i++) u |= tb->a_uno[ways[i]];
    if (u) {
        int j = 0;
        for (int i = 0; i < m; i++)
            if (tb->a_uno[ways[i]]) ways[j++] = ways[i];
        m = j;
    }
    if (m == 1) return ways[0];
    int n = st->n;
    if (t == C_HOWLER) {
        int best = ways[0];
        for (int i = 1; i < m; i++) {
            int a = ways[i], sa = tb->a_arg[a], sb = tb->a_arg[best];
            int ka = partners(tb, me, sa), kb = partners(tb, me, sb);
            if (ka != kb ? ka < kb
                         : HAND_LEN(st, sa) != HAND_LEN(st, sb) ? HAND_LEN(st, sa) < HAND_LEN(st, sb)
                                                               : mod_seat(sa - me, n) < mod_seat(sb - me, n))
                best = a;
        }
        return best;
    }
    int nxt = mod_seat(me + st->direction, n);
    int color = best_color(tb, st, me, t, partners(tb, me, nxt) ? -1 : nxt);
    for (int i = 0; i < m; i++)
        if (tb->a_arg[ways[i]] == color) return ways[i];
    return ways[0];
}

/* wd4_guilt: the chance that the pending Wild Draw Four is a bluff, from ``me``'s view. */
static double wd4_guilt(const Tables *tb, const UState *st, int me, double prior) {
    int offender = st->pend_from, color = st->pend_color;
    if (offender < 0 || color < 0) return 0.0;
    int known = 0;
    for (int p = HAND_BEGIN(st, offender); p < HAND_END(st, offender); p++) {
        if (st->known[p] >> me & 1) {
            known++;
            if (tb->color[st->cards[p]] == color) return 1.0;
        }
    }
    int unseen[4], total;
    unseen_colors(tb, st, me, unseen, &total);
    int unknown = HAND_LEN(st, offender) - known, other = total - unseen[color];
    double none = 1.0;
    for (int i = 0; i < unknown; i++) {
        if (total - i <= 0) break;
        int o = other - i;
        none *= (o > 0 ? o : 0) / (double)(total - i);
    }
    double held = 1.0 - none, weighed = held * prior;
    return weighed + none > 0 ? weighed / (weighed + none) : 0.0;
}

static int greedy_choose(const Tables *tb, const UState *st, int me, const int *ids, int k, const GreedyParams *g) {
    int n = st->n;
    switch (st->phase) {
    case P_CHOOSE_COLOR: {
        int then = st->after_color;
        int avoid = (then >= 0 && !partners(tb, me, then)) ? then : -1;
        return tb->color_id[best_color(tb, st, me, -1, avoid)];
    }
    case P_RESPOND: {
        int pend = st->pend_card, invis_call = -1, can_challenge = 0;
        for (int i = 0; i < k; i++) {
            if (tb->a_kind[ids[i]] == K_INVIS) invis_call = 1;
            if (ids[i] == tb->challenge_id) can_challenge = 1;
        }
        if (invis_call >= 0) {
            int color = best_color(tb, st, me, C_INVIS, -1), uno = HAND_LEN(st, me) == 2;
            invis_call = tb->invis_id[uno][color];
        }
        if (pend == C_WD4 && can_challenge) {
            double guilt = wd4_guilt(tb, st, me, g->bluff_prior);
            if (guilt >= 1.0) return tb->challenge_id;
            if (invis_call >= 0) return invis_call;
            double threshold = g->challenge_threshold;
            if (HAND_LEN(st, st->pend_from) <= 2) threshold *= 0.6;
            return guilt > threshold ? tb->challenge_id : tb->accept_id;
        }
        int v = pend % 15;
        if (invis_call >= 0 && (pend == C_HOWLER || (pend < 60 && (v == 12 || v == 13)))) return invis_call;
        if (invis_call >= 0 && HAND_LEN(st, me) <= 2) return invis_call;
        return tb->accept_id;
    }
    case P_AFTER_DRAW: {
        int plays = 0, can_pass = 0, drawn = st->drawn;
        for (int i = 0; i < k; i++) {
            if (tb->a_kind[ids[i]] == K_PLAY) plays = 1;
            if (ids[i] == tb->pass_id) can_pass = 1;
        }
        if (!plays) return tb->pass_id;
        if (can_pass && card_score(tb, st, me, drawn, g) <= -1000) return tb->pass_id;
        if (can_pass && drawn == C_INVIS && HAND_LEN(st, me) > 2) return tb->pass_id;
        return greedy_play(tb, st, me, drawn, ids, k);
    }
    default: {
        const uint8_t *ok = tb->playable[(st->color + 1) * NT + TOP(st)];
        int best = -1;
        double best_score = 0;
        (void)n;
        for (int t = 0; t < NT; t++) { /* by card type, the first of the best wins (max) */
            if (!ok[t] || !holds(st, me, t)) continue;
            double s = card_score(tb, st, me, t, g);
            if (best < 0 || s > best_score) {
                best = t;
                best_score = s;
            }
        }
        if (best < 0 || best_score <= -1000) return tb->draw_id;
        return greedy_play(tb, st, me, best, ids, k);
    }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The search bot's playout policy (bots/rollout.py): greedy's rules read off the whole state. */

/* rollout._color: the colour held most, then with the most points (of ``hand`` less one
 * ``skip_one``); counts are of the whole hand, as the Python passes them. */
static int rollout_color(const Tables *tb, const UState *st, int seat, int skip_one) {
    int counts[4], points[4], c2[4], p2[4];
    color_counts_hand(tb, st, seat, -1, counts, p2);
    color_counts_hand(tb, st, seat, skip_one, c2, points);
    int best = 0;
    for (int c = 1; c < 4; c++)
        if (counts[c] > counts[best] || (counts[c] == counts[best] && points[c] > points[best])) best = c;
    return best;
}

/* rollout.play_id / _play: the way ``seat`` plays ``card`` (uno spelling with two cards). */
static int rollout_play(const Tables *tb, const UState *st, int seat, int card) {
    int n = st->n, uno = HAND_LEN(st, seat) == 2;
    if (card == C_HOWLER) {
        int target = -1;
        for (int s = 0; s < n; s++) {
            if (s == seat) continue;
            if (target < 0) {
                target = s;
                continue;
            }
            int ks = tb->teams && s % 2 == seat % 2, kt = tb->teams && target % 2 == seat % 2;
            int ls = HAND_LEN(st, s), lt = HAND_LEN(st, target);
            if (ks != kt ? ks < kt : ls != lt ? ls < lt : mod_seat(s - seat, n) < mod_seat(target - seat, n))
                target = s;
        }
        return tb->play_id[card][uno][target + 1];
    }
    if (!tb->wild[card] || card == C_MATER) return tb->play_id[card][uno][0];
    return tb->play_id[card][uno][rollout_color(tb, st, seat, card) + 1];
}

/* rollout._guilt: from ``seat``'s side, every card it does not hold unknown. */
static double rollout_guilt(const Tables *tb, const UState *st, int seat) {
    int color = st->pend_color, offender = st->pend_from;
    if (color < 0) return 0.0;
    int total = 0, of_color = 0, ds = st->start[SEG_DISCARD(st)];
    for (int p = 0; p < ds; p++) {
        if (p >= HAND_BEGIN(st, seat) && p < HAND_END(st, seat)) continue;
        total++;
        if (tb->color[st->cards[p]] == color) of_color++;
    }
    int other = total - of_color;
    double none = 1.0;
    for (int i = 0; i < HAND_LEN(st, offender); i++) {
        if (total - i <= 0) break;
        int o = other - i;
        none *= (o > 0 ? o : 0) / (double)(total - i);
    }
    double weighed = (1.0 - none) * 0.3;
    return weighed + none > 0 ? weighed / (weighed + none) : 0.0;
}

/* rollout.rollout_action */
static int rollout_action(const Tables *tb, const UState *st) {
    int seat = st->current, len = HAND_LEN(st, seat);
    switch (st->phase) {
    case P_TURN: {
        const uint8_t *ok = tb->playable[(st->color + 1) * NT + TOP(st)];
        int best = -1, count = 0;
        double best_score = -1e9;
        for (int t = 0; t < NT; t++) {
            if (!ok[t] || !holds(st, seat, t)) continue;
            count++;
            double sc = card_score(tb, st, seat, t, &GREEDY);
            if (best < 0 || sc > best_score) {
                best = t;
                best_score = sc;
            }
        }
        if (best < 0) return tb->draw_id;
        if (count == 1) {
            if (!tb->wild[best]) return rollout_play(tb, st, seat, best);
            if (len > 1 && best == C_WD4 && best_score <= -1000) return tb->draw_id;
            return rollout_play(tb, st, seat, best);
        }
        if (best_score <= -1000) return tb->draw_id;
        return rollout_play(tb, st, seat, best);
    }
    case P_AFTER_DRAW: {
        int drawn = st->drawn;
        if (!tb->must_play_drawn &&
            (card_score(tb, st, seat, drawn, &GREEDY) <= -1000 || (drawn == C_INVIS && len > 2)))
            return tb->pass_id;
        return rollout_play(tb, st, seat, drawn);
    }
    case P_CHOOSE_COLOR:
        return tb->color_id[rollout_color(tb, st, seat, -1)];
    default: {
        int pend = st->pend_card, invis = tb->rw && holds(st, seat, C_INVIS);
        int v = pend % 15;
        if (pend == C_WD4) {
            if (invis) return tb->invis_id[len == 2][rollout_color(tb, st, seat, C_INVIS)];
            double threshold = 0.35;
            if (HAND_LEN(st, st->pend_from) <= 2) threshold *= 0.6;
            return rollout_guilt(tb, st, seat) > threshold ? tb->challenge_id : tb->accept_id;
        }
        if (invis && (pend == C_HOWLER || (pend < 60 && (v == 12 || v == 13)) || len <= 2))
            return tb->invis_id[len == 2][rollout_color(tb, st, seat, C_INVIS)];
        return tb->accept_id;
    }
    }
}

/* One decision of ``policy`` for ``seat``. */
static int policy_choose(const Tables *tb, const UState *st, int seat, int policy, Picker *pk, int *ids, int k) {
    int el[MAXIDS], m = k;
    const int *opts = ids;
    if (policy == POL_GREEDY) return greedy_choose(tb, st, seat, ids, k, &GREEDY);
    if (st->exposed || HAND_LEN(st, seat) == 2) { /* out-of-turn options or uno spellings */
        m = eligible(tb, ids, k, el);
        opts = el;
    }
    int aid = opts[pick_word(pk) % (uint32_t)m];
    if (policy == POL_PLAYS_FIRST && m > 1) {
        while (aid == tb->draw_id || aid == tb->pass_id) aid = opts[pick_word(pk) % (uint32_t)m];
    }
    return aid;
}

/* ------------------------------------------------------------------------------------------ */
/* Python objects: Tables, State, and the batched functions. */

typedef struct {
    PyObject_HEAD Tables tb;
} TablesObject;

typedef struct {
    PyObject_HEAD TablesObject *tables;
    UState st;
} StateObject;

static PyTypeObject TablesType;
static PyTypeObject StateType;

static int read_bytes(PyObject *obj, Py_ssize_t need, const char *what, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len != need) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd bytes, not %zd", what, need, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Tables(n, draw_amount, rw, sugg, must_play_drawn, target, mode, scoring, teams, deck,
 *        effect, wild, color, points, playable, blanks, actions) */
static int Tables_init(TablesObject *self, PyObject *args, PyObject *kw) {
    Tables *tb = &self->tb;
    PyObject *deck, *effect, *wild, *color, *points, *playable, *blanks, *actions;
    if (!PyArg_ParseTuple(args, "iiiiiiiiiOOOOOOOO", &tb->n, &tb->draw_amount, &tb->rw, &tb->sugg,
                          &tb->must_play_drawn, &tb->target, &tb->mode, &tb->scoring, &tb->teams, &deck,
                          &effect, &wild, &color, &points, &playable, &blanks, &actions))
        return -1;
    if (tb->n < 2 || tb->n > MAXP) {
        PyErr_SetString(PyExc_ValueError, "players must be from 2 to 10");
        return -1;
    }
    Py_buffer v;
    if (PyObject_GetBuffer(deck, &v, PyBUF_SIMPLE) < 0) return -1;
    if (v.len < 7 * tb->n + 1 || v.len > MAXC) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "bad deck");
        return -1;
    }
    tb->ndeck = (int)v.len;
    memcpy(tb->deck, v.buf, (size_t)v.len);
    PyBuffer_Release(&v);
    if (read_bytes(effect, NT, "effect", &v) < 0) return -1;
    memcpy(tb->effect, v.buf, NT);
    PyBuffer_Release(&v);
    if (read_bytes(wild, NT, "wild", &v) < 0) return -1;
    memcpy(tb->wild, v.buf, NT);
    PyBuffer_Release(&v);
    if (read_bytes(color, NT, "color", &v) < 0) return -1;
    memcpy(tb->color, v.buf, NT);
    PyBuffer_Release(&v);
    if (read_bytes(points, NT, "points", &v) < 0) return -1;
    memcpy(tb->points, v.buf, NT);
    PyBuffer_Release(&v);
    if (read_bytes(playable, 5 * NT * NT, "playable", &v) < 0) return -1;
    memcpy(tb->playable, v.buf, 5 * NT * NT);
    PyBuffer_Release(&v);
    if (read_bytes(blanks, 20, "blanks", &v) < 0) return -1;
    {
        const uint8_t *b = v.buf;
        for (int c = 0; c < 4; c++) {
            tb->blank_draw[c] = b[c * 5];
            tb->blank_skip[c] = b[c * 5 + 1];
            tb->blank_rev[c] = b[c * 5 + 2];
            tb->blank_wild[c] = b[c * 5 + 3];
            tb->blank_reveal[c] = b[c * 5 + 4];
        }
    }
    PyBuffer_Release(&v);
    if (PyObject_GetBuffer(actions, &v, PyBUF_SIMPLE) < 0) return -1;
    if (v.len % 4 || v.len / 4 > NAMAX) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "bad action table");
        return -1;
    }
    tb->na = (int)(v.len / 4);
    memset(tb->play_id, 0xFF, sizeof tb->play_id);
    {
        const int8_t *a = v.buf;
        for (int i = 0; i < tb->na; i++) {
            int kind = a[4 * i], card = a[4 * i + 1], arg = a[4 * i + 2], uno = a[4 * i + 3];
            tb->a_kind[i] = (int8_t)kind;
            tb->a_card[i] = (int8_t)card;
            tb->a_arg[i] = (int8_t)arg;
            tb->a_uno[i] = (int8_t)uno;
            switch (kind) {
            case K_PLAY:
                tb->play_id[card][uno][arg + 1] = (int16_t)i;
                break;
            case K_DRAW: tb->draw_id = (int16_t)i; break;
            case K_PASS: tb->pass_id = (int16_t)i; break;
            case K_COLOR: tb->color_id[arg] = (int16_t)i; break;
            case K_UNO: tb->uno_id = (int16_t)i; break;
            case K_CATCH: tb->catch_id[arg] = (int16_t)i; break;
            case K_CHALLENGE: tb->challenge_id = (int16_t)i; break;
            case K_ACCEPT: tb->accept_id = (int16_t)i; break;
            case K_INVIS: tb->invis_id[uno][arg] = (int16_t)i; break;
            case K_PENALIZE: tb->penalize_id[arg] = (int16_t)i; break;
            default: break;
            }
        }
    }
    PyBuffer_Release(&v);
    return 0;
}

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unotable.native._core.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_doc = "The lookup tables of one Rules (built by unotable.native.core).",
};

static StateObject *new_state_object(TablesObject *tables) {
    StateObject *obj = PyObject_New(StateObject, &StateType);
    if (!obj) return NULL;
    Py_INCREF(tables);
    obj->tables = tables;
    return obj;
}

static void State_dealloc(StateObject *self) {
    Py_XDECREF(self->tables);
    PyObject_Free(self);
}

static PyObject *list_of(const uint8_t *cards, int len) {
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    for (int i = 0; i < len; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(cards[i]));
    return out;
}

static PyObject *State_legal_ids(StateObject *self, PyObject *arg) {
    int seat = (int)PyLong_AsLong(arg), ids[MAXIDS];
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (!(seat == TABLE_SEAT || (seat >= 0 && seat < self->st.n))) {
        PyErr_Format(PyExc_ValueError, "no seat %d at this table of %d", seat, self->st.n);
        return NULL;
    }
    int k = legal_ids(&self->tables->tb, &self->st, seat, ids);
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(ids[i]));
    return out;
}

/* step(seat, aid): checked; a ValueError changes nothing. */
static PyObject *State_step(StateObject *self, PyObject *args) {
    int seat, aid, ids[MAXIDS];
    if (!PyArg_ParseTuple(args, "ii", &seat, &aid)) return NULL;
    if (!(seat == TABLE_SEAT || (seat >= 0 && seat < self->st.n))) {
        PyErr_Format(PyExc_ValueError, "no seat %d at this table of %d", seat, self->st.n);
        return NULL;
    }
    int k = legal_ids(&self->tables->tb, &self->st, seat, ids), ok = 0;
    for (int i = 0; i < k; i++)
        if (ids[i] == aid) ok = 1;
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "action %d is not legal for seat %d now", aid, seat);
        return NULL;
    }
    step(&self->tables->tb, &self->st, seat, aid);
    Py_RETURN_NONE;
}

/* playout(seat, aid, horizon) -> (phase, current, winner, hand_points, sizes, points): on a copy
 * (this state is not changed), ``seat`` takes ``aid``, then every seat plays rollout_action
 * (bots/rollout.py) until the hand ends or ``horizon`` actions more; what the search bot's reward
 * reads of the end: the phase, the seat to play, the winner, the hand's points, each hand's size
 * and points. */
static PyObject *State_playout(StateObject *self, PyObject *args) {
    int seat, aid, horizon, ids[MAXIDS];
    if (!PyArg_ParseTuple(args, "iii", &seat, &aid, &horizon)) return NULL;
    const Tables *tb = &self->tables->tb;
    if (seat < 0 || seat >= self->st.n) {
        PyErr_Format(PyExc_ValueError, "no seat %d at this table of %d", seat, self->st.n);
        return NULL;
    }
    int k = legal_ids(tb, &self->st, seat, ids), ok = 0;
    for (int i = 0; i < k; i++)
        if (ids[i] == aid) ok = 1;
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "action %d is not legal for seat %d now", aid, seat);
        return NULL;
    }
    UState st = self->st;
    step(tb, &st, seat, aid);
    for (int i = 0; i < horizon && st.phase < P_HAND_OVER; i++) step(tb, &st, st.current, rollout_action(tb, &st));
    int n = st.n, points[MAXP];
    hand_points_of(tb, &st, points);
    PyObject *sizes = PyList_New(n), *pts = PyList_New(n);
    if (!sizes || !pts) {
        Py_XDECREF(sizes);
        Py_XDECREF(pts);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        PyList_SET_ITEM(sizes, s, PyLong_FromLong(HAND_LEN(&st, s)));
        PyList_SET_ITEM(pts, s, PyLong_FromLong(points[s]));
    }
    return Py_BuildValue("(iiiiNN)", st.phase, st.current, st.winner, st.hand_points, sizes, pts);
}

/* rollout_action() -> the playout policy's action for the seat the phase waits for (tests). */
static PyObject *State_rollout_action(StateObject *self, PyObject *unused) {
    if (self->st.current < 0) {
        PyErr_SetString(PyExc_ValueError, "the hand is over");
        return NULL;
    }
    return PyLong_FromLong(rollout_action(&self->tables->tb, &self->st));
}

static PyObject *State_copy(StateObject *self, PyObject *unused) {
    StateObject *obj = new_state_object(self->tables);
    if (!obj) return NULL;
    obj->st = self->st;
    return (PyObject *)obj;
}

/* dump(): every field, as unotable.native.core reads it back into a Python State. */
static PyObject *State_dump(StateObject *self, PyObject *unused) {
    const UState *st = &self->st;
    int n = st->n;
    PyObject *hands = PyList_New(n), *masks = PyList_New(n), *facing = PyList_New(n), *scores;
    if (!hands || !masks || !facing) goto fail;
    for (int s = 0; s < n; s++) {
        int b = HAND_BEGIN(st, s), len = HAND_LEN(st, s);
        PyObject *h = list_of(st->cards + b, len), *m = PyList_New(len);
        if (!h || !m) {
            Py_XDECREF(h);
            Py_XDECREF(m);
            goto fail;
        }
        for (int i = 0; i < len; i++) PyList_SET_ITEM(m, i, PyLong_FromLong(st->known[b + i]));
        PyList_SET_ITEM(hands, s, h);
        PyList_SET_ITEM(masks, s, m);
        PyList_SET_ITEM(facing, s, PyLong_FromLong(st->drew_facing[s]));
    }
    scores = PyList_New(0);
    if (!scores) goto fail;
    for (int s = 0; s < MAXP; s++) {
        PyObject *x = PyLong_FromLong(st->scores[s]);
        if (!x || PyList_Append(scores, x) < 0) {
            Py_XDECREF(x);
            Py_DECREF(scores);
            goto fail;
        }
        Py_DECREF(x);
    }
    return Py_BuildValue("{sNsNsNsNsNsisisisisisisisisisisisisisNsisisisK}", "hands", hands, "known", masks,
                         "draw", list_of(st->cards, DRAW_LEN(st)), "discard",
                         list_of(st->cards + st->start[SEG_DISCARD(st)], DISCARD_LEN(st)), "drew_facing",
                         facing, "color", st->color, "current", st->current, "direction", st->direction,
                         "dealer", st->dealer, "phase", st->phase, "drawn", st->drawn, "after_color",
                         st->after_color, "pend_card", st->pend_card, "pend_from", st->pend_from,
                         "pend_color", st->pend_color, "pend_guilty", st->pend_guilty, "exposed",
                         (int)st->exposed, "winner", st->winner, "scores", scores, "hand_points",
                         st->hand_points, "game_winners", (int)st->game_winners, "n", n, "rng",
                         (unsigned long long)st->rng);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(masks);
    Py_XDECREF(facing);
    return NULL;
}

static PyObject *State_current(StateObject *self, void *unused) { return PyLong_FromLong(self->st.current); }
static PyObject *State_phase(StateObject *self, void *unused) { return PyLong_FromLong(self->st.phase); }
static PyObject *State_winner(StateObject *self, void *unused) { return PyLong_FromLong(self->st.winner); }
static PyObject *State_sizeof(StateObject *self, PyObject *unused) { return PyLong_FromSize_t(sizeof(StateObject)); }

static PyMethodDef State_methods[] = {
    {"legal_ids", (PyCFunction)State_legal_ids, METH_O, "Ids of the legal actions of a seat (-2: the table)."},
    {"step", (PyCFunction)State_step, METH_VARARGS, "Apply a legal action (ValueError if it is not legal)."},
    {"copy", (PyCFunction)State_copy, METH_NOARGS, "An independent copy."},
    {"playout", (PyCFunction)State_playout, METH_VARARGS,
     "playout(seat, aid, horizon) -> (phase, current, winner, hand_points, sizes, points), on a copy."},
    {"rollout_action", (PyCFunction)State_rollout_action, METH_NOARGS, "The playout policy's action now."},
    {"dump", (PyCFunction)State_dump, METH_NOARGS, "Every field, as a dict."},
    {"__sizeof__", (PyCFunction)State_sizeof, METH_NOARGS, "Bytes of the object."},
    {NULL}};

static PyGetSetDef State_getset[] = {
    {"current", (getter)State_current, NULL, "The seat the phase waits for; -1 once over.", NULL},
    {"phase", (getter)State_phase, NULL, "The phase (state.Phase).", NULL},
    {"winner", (getter)State_winner, NULL, "The seat that went out, or -1.", NULL},
    {NULL}};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unotable.native._core.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)State_dealloc,
    .tp_methods = State_methods,
    .tp_getset = State_getset,
    .tp_doc = "A hand's state in the native core (made by new_hand or load).",
};

/* ------------------------------------------------------------------------------------------ */
/* Batch: many tables stepped together for reinforcement learning (no Python object per table).
 * Each table plays hand after hand (a finished hand is dealt again at once, from the table's
 * next seed); the seat the phase waits for acts. Observations, masks, rewards and the end
 * flags are written into buffers the caller owns (numpy arrays or bytearrays). */

#define OBS_SIZE 149

typedef struct {
    PyObject_HEAD TablesObject *tables;
    Py_ssize_t num;
    int fast;
    uint64_t seed;
    UState *states;
    uint64_t *hands; /* hands dealt so far, per table */
} BatchObject;

static PyTypeObject BatchType;

static uint64_t batch_seed(uint64_t base, Py_ssize_t table, uint64_t hand) {
    uint64_t x = seed_to_rng(base) ^ ((uint64_t)table * 0xD1B54A32D192ED03ULL);
    uint64_t y = x + hand * 0x9E3779B97F4A7C15ULL;
    return next_random(&y);
}

static int batch_deal(BatchObject *b, Py_ssize_t i) {
    const Tables *tb = &b->tables->tb;
    int cand[MAXP];
    uint64_t seed = batch_seed(b->seed, i, b->hands[i]++);
    return new_hand(tb, &b->states[i], seed, (int)(seed % (uint64_t)tb->n), cand, 0, b->fast);
}

/* What the seat the phase waits for sees (RULES: its hand, the discard pile, the sizes). */
static void batch_observe(const Tables *tb, const UState *st, uint8_t *obs, uint8_t *mask) {
    int n = st->n, seat = st->current, ids[MAXIDS];
    memset(obs, 0, OBS_SIZE);
    for (int p = HAND_BEGIN(st, seat); p < HAND_END(st, seat); p++) obs[st->cards[p]]++;
    for (int p = st->start[SEG_DISCARD(st)]; p < st->ncards; p++) obs[NT + st->cards[p]]++;
    obs[130] = TOP(st);
    obs[131] = (uint8_t)(st->color + 1);
    obs[132] = (uint8_t)st->phase;
    obs[133] = st->direction > 0;
    obs[134] = (uint8_t)(st->drawn + 1);
    obs[135] = (uint8_t)(st->pend_card + 1);
    obs[136] = (uint8_t)DRAW_LEN(st);
    for (int k = 0; k < n; k++) obs[137 + k] = (uint8_t)HAND_LEN(st, mod_seat(seat + k * st->direction, n));
    obs[147] = (uint8_t)seat;
    obs[148] = (uint8_t)n;
    memset(mask, 0, (size_t)tb->na);
    int k = legal_ids(tb, st, seat, ids);
    for (int i = 0; i < k; i++) {
        int kind = tb->a_kind[ids[i]];
        if (kind != K_UNO && kind != K_CATCH && kind != K_PENALIZE) mask[ids[i]] = 1;
    }
}

static int writable(PyObject *obj, Py_buffer *v, Py_ssize_t need, const char *what) {
    if (PyObject_GetBuffer(obj, v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (v->len != need) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd bytes, not %zd", what, need, v->len);
        PyBuffer_Release(v);
        return -1;
    }
    return 0;
}

/* Batch(tables, num, seed, fast) */
static int Batch_init(BatchObject *self, PyObject *args, PyObject *kw) {
    TablesObject *tables;
    Py_ssize_t num;
    unsigned long long seed;
    int fast;
    if (!PyArg_ParseTuple(args, "O!nKp", &TablesType, &tables, &num, &seed, &fast)) return -1;
    if (num < 1 || num > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "a batch holds 1 to 16,777,216 tables");
        return -1;
    }
    PyMem_Free(self->states);
    PyMem_Free(self->hands);
    self->states = PyMem_Calloc((size_t)num, sizeof(UState));
    self->hands = PyMem_Calloc((size_t)num, sizeof(uint64_t));
    if (!self->states || !self->hands) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(tables);
    Py_XSETREF(self->tables, tables);
    self->num = num;
    self->seed = seed;
    self->fast = fast;
    for (Py_ssize_t i = 0; i < num; i++)
        if (batch_deal(self, i) < 0) {
            PyErr_SetString(PyExc_ValueError, "a deal failed");
            return -1;
        }
    return 0;
}

static void Batch_dealloc(BatchObject *self) {
    Py_XDECREF(self->tables);
    PyMem_Free(self->states);
    PyMem_Free(self->hands);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* observe(obs, mask): every table's observation and mask of its acting seat. */
static PyObject *Batch_observe(BatchObject *self, PyObject *args) {
    PyObject *obs_obj, *mask_obj;
    Py_buffer ov, mv;
    if (!PyArg_ParseTuple(args, "OO", &obs_obj, &mask_obj)) return NULL;
    const Tables *tb = &self->tables->tb;
    if (writable(obs_obj, &ov, self->num * OBS_SIZE, "obs") < 0) return NULL;
    if (writable(mask_obj, &mv, self->num * tb->na, "mask") < 0) {
        PyBuffer_Release(&ov);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->num; i++)
        batch_observe(tb, &self->states[i], (uint8_t *)ov.buf + i * OBS_SIZE, (uint8_t *)mv.buf + i * tb->na);
    PyBuffer_Release(&ov);
    PyBuffer_Release(&mv);
    Py_RETURN_NONE;
}

/* step(actions, obs, mask, rewards, done): each table's acting seat takes its action (int32
 * ids); a table whose hand ends gets its rewards (float32, one per seat: +1 for the winner, or
 * its team, -1 for the others), done = 1, and a new hand at once; then every observation and
 * mask. All actions are checked before any is applied: a ValueError changes nothing. */
static PyObject *Batch_step(BatchObject *self, PyObject *args) {
    PyObject *act_obj, *obs_obj, *mask_obj, *rew_obj, *done_obj;
    Py_buffer av, ov, mv, rv, dv;
    if (!PyArg_ParseTuple(args, "OOOOO", &act_obj, &obs_obj, &mask_obj, &rew_obj, &done_obj)) return NULL;
    const Tables *tb = &self->tables->tb;
    int n = tb->n, ids[MAXIDS], got = 0;
    if (PyObject_GetBuffer(act_obj, &av, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (av.len != self->num * 4) {
        PyErr_Format(PyExc_ValueError, "actions must be %zd int32, not %zd bytes", self->num, av.len);
        PyBuffer_Release(&av);
        return NULL;
    }
    if (writable(obs_obj, &ov, self->num * OBS_SIZE, "obs") < 0) goto out0;
    got = 1;
    if (writable(mask_obj, &mv, self->num * tb->na, "mask") < 0) goto out;
    got = 2;
    if (writable(rew_obj, &rv, self->num * n * 4, "rewards") < 0) goto out;
    got = 3;
    if (writable(done_obj, &dv, self->num, "done") < 0) goto out;
    got = 4;
    const int32_t *actions = av.buf;
    for (Py_ssize_t i = 0; i < self->num; i++) {
        const UState *st = &self->states[i];
        int aid = actions[i], ok = 0, k = legal_ids(tb, st, st->current, ids);
        for (int j = 0; j < k; j++)
            if (ids[j] == aid && tb->a_kind[aid] != K_UNO && tb->a_kind[aid] != K_CATCH) ok = 1;
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "table %zd: action %d is not legal for seat %d now", i, aid,
                         st->current);
            goto out;
        }
    }
    float *rewards = rv.buf;
    uint8_t *done = dv.buf;
    memset(rewards, 0, (size_t)(self->num * n) * 4);
    for (Py_ssize_t i = 0; i < self->num; i++) {
        UState *st = &self->states[i];
        step(tb, st, st->current, actions[i]);
        done[i] = st->current < 0;
        if (done[i]) {
            for (int s = 0; s < n; s++)
                rewards[i * n + s] = partners(tb, s, st->winner) ? 1.0f : -1.0f;
            if (batch_deal(self, i) < 0) {
                PyErr_SetString(PyExc_ValueError, "a deal failed");
                goto out;
            }
        }
        batch_observe(tb, st, (uint8_t *)ov.buf + i * OBS_SIZE, (uint8_t *)mv.buf + i * tb->na);
    }
out:
    if (got >= 4) PyBuffer_Release(&dv);
    if (got >= 3) PyBuffer_Release(&rv);
    if (got >= 2) PyBuffer_Release(&mv);
    if (got >= 1) PyBuffer_Release(&ov);
out0:
    PyBuffer_Release(&av);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* state(i) -> State: a copy of table i's hand (tests, debugging). */
static PyObject *Batch_state(BatchObject *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    StateObject *obj = new_state_object(self->tables);
    if (!obj) return NULL;
    obj->st = self->states[i];
    return (PyObject *)obj;
}

static PyObject *Batch_seed_of(BatchObject *self, PyObject *args) {
    Py_ssize_t i;
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "nK", &i, &hand)) return NULL;
    return PyLong_FromUnsignedLongLong(batch_seed(self->seed, i, hand));
}

static PyObject *Batch_len(BatchObject *self, PyObject *unused) { return PyLong_FromSsize_t(self->num); }

static PyMethodDef Batch_methods[] = {
    {"observe", (PyCFunction)Batch_observe, METH_VARARGS, "observe(obs, mask)"},
    {"step", (PyCFunction)Batch_step, METH_VARARGS, "step(actions, obs, mask, rewards, done)"},
    {"state", (PyCFunction)Batch_state, METH_O, "A copy of one table's state."},
    {"seed_of", (PyCFunction)Batch_seed_of, METH_VARARGS, "seed_of(table, hand): the seed that deals it."},
    {"size", (PyCFunction)Batch_len, METH_NOARGS, "The number of tables."},
    {NULL}};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unotable.native._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_doc = "Many tables stepped together (see unotable.native.core.Batch).",
};

static int parse_candidates(PyObject *obj, int n, int *cand, int *ncand) {
    Py_buffer v;
    if (PyObject_GetBuffer(obj, &v, PyBUF_SIMPLE) < 0) return -1;
    if (v.len < 1 || v.len > n) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "candidates must name 1 to n seats");
        return -1;
    }
    *ncand = (int)v.len;
    for (int i = 0; i < v.len; i++) {
        cand[i] = ((uint8_t *)v.buf)[i];
        if (cand[i] >= n) {
            PyBuffer_Release(&v);
            PyErr_SetString(PyExc_ValueError, "bad candidate seat");
            return -1;
        }
    }
    PyBuffer_Release(&v);
    return 0;
}

static int first_card_error(int rc) {
    if (rc == -1)
        PyErr_SetString(PyExc_ValueError, "the draw pile ran out while turning the first card");
    else
        PyErr_SetString(PyExc_ValueError, "no card of the draw pile can start the discard pile");
    return -1;
}

/* new_hand(tables, seed, dealer, candidates): dealer < 0 draws among candidates (bytes). */
static PyObject *py_new_hand(PyObject *mod, PyObject *args) {
    TablesObject *tables;
    unsigned long long seed;
    int dealer, cand[MAXP], ncand = 0;
    PyObject *candidates;
    if (!PyArg_ParseTuple(args, "O!KiO", &TablesType, &tables, &seed, &dealer, &candidates)) return NULL;
    if (dealer < 0 && parse_candidates(candidates, tables->tb.n, cand, &ncand) < 0) return NULL;
    if (dealer >= tables->tb.n) {
        PyErr_SetString(PyExc_ValueError, "bad dealer");
        return NULL;
    }
    StateObject *obj = new_state_object(tables);
    if (!obj) return NULL;
    int rc = new_hand(&tables->tb, &obj->st, seed, dealer, cand, ncand, 0);
    if (rc < 0) {
        Py_DECREF(obj);
        first_card_error(rc);
        return NULL;
    }
    return (PyObject *)obj;
}

static int fill_list(PyObject *list, uint8_t *cards, int *pos, int limit) {
    Py_ssize_t len = PyList_Size(list);
    if (len < 0) return -1;
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c >= NT || *pos >= limit) {
            PyErr_SetString(PyExc_ValueError, "bad card or too many cards");
            return -1;
        }
        cards[(*pos)++] = (uint8_t)c;
    }
    return 0;
}

/* load(tables, fields): a state from the dict ``dump`` writes (the glue checks it first). */
static PyObject *py_load(PyObject *mod, PyObject *args) {
    TablesObject *tables;
    PyObject *d;
    if (!PyArg_ParseTuple(args, "O!O!", &TablesType, &tables, &PyDict_Type, &d)) return NULL;
    StateObject *obj = new_state_object(tables);
    if (!obj) return NULL;
    UState *st = &obj->st;
    const Tables *tb = &tables->tb;
    empty_state(tb, st, 1);
    int n = tb->n, pos = 0;
#define GETITEM(name) PyDict_GetItemString(d, name)
    PyObject *draw = GETITEM("draw"), *hands = GETITEM("hands"), *known = GETITEM("known"),
             *discard = GETITEM("discard"), *facing = GETITEM("drew_facing"), *scores = GETITEM("scores");
    if (!draw || !hands || !known || !discard || !facing || !scores || !PyList_Check(draw) ||
        !PyList_Check(hands) || !PyList_Check(known) || !PyList_Check(discard) || !PyList_Check(facing) ||
        !PyList_Check(scores) || PyList_GET_SIZE(hands) != n || PyList_GET_SIZE(known) != n ||
        PyList_GET_SIZE(facing) != n || PyList_GET_SIZE(scores) > MAXP) {
        PyErr_SetString(PyExc_ValueError, "load: bad fields");
        goto fail;
    }
    st->start[0] = 0;
    if (fill_list(draw, st->cards, &pos, MAXC) < 0) goto fail;
    st->start[1] = (uint8_t)pos;
    for (int s = 0; s < n; s++) {
        PyObject *h = PyList_GET_ITEM(hands, s), *m = PyList_GET_ITEM(known, s);
        int b = pos;
        if (!PyList_Check(h) || !PyList_Check(m) || PyList_GET_SIZE(h) != PyList_GET_SIZE(m)) {
            PyErr_SetString(PyExc_ValueError, "load: bad hand");
            goto fail;
        }
        if (fill_list(h, st->cards, &pos, MAXC) < 0) goto fail;
        for (int i = 0; i < pos - b; i++) {
            long mask = PyLong_AsLong(PyList_GET_ITEM(m, i));
            if (mask == -1 && PyErr_Occurred()) goto fail;
            st->known[b + i] = (uint16_t)mask;
            if (mask) st->any_known = 1;
        }
        st->start[s + 2] = (uint8_t)pos;
    }
    if (fill_list(discard, st->cards, &pos, MAXC) < 0) goto fail;
    if (PyList_GET_SIZE(discard) < 1) {
        PyErr_SetString(PyExc_ValueError, "load: the discard pile is empty");
        goto fail;
    }
    st->ncards = (uint8_t)pos; /* a position may leave cards out (scenario files) */
    st->start[n + 2] = (uint8_t)pos;
    for (int s = 0; s < n; s++) st->drew_facing[s] = (int16_t)PyLong_AsLong(PyList_GET_ITEM(facing, s));
    for (Py_ssize_t s = 0; s < PyList_GET_SIZE(scores); s++)
        st->scores[s] = (int32_t)PyLong_AsLong(PyList_GET_ITEM(scores, s));
#define GETINT(name, field)                                                      \
    do {                                                                         \
        PyObject *x = GETITEM(name);                                             \
        if (!x) {                                                                \
            PyErr_SetString(PyExc_ValueError, "load: missing " name);            \
            goto fail;                                                           \
        }                                                                        \
        long v = PyLong_AsLong(x);                                               \
        if (v == -1 && PyErr_Occurred()) goto fail;                              \
        field = v;                                                               \
    } while (0)
    GETINT("color", st->color);
    GETINT("current", st->current);
    GETINT("direction", st->direction);
    GETINT("dealer", st->dealer);
    GETINT("phase", st->phase);
    GETINT("drawn", st->drawn);
    GETINT("after_color", st->after_color);
    GETINT("pend_card", st->pend_card);
    GETINT("pend_from", st->pend_from);
    GETINT("pend_color", st->pend_color);
    GETINT("pend_guilty", st->pend_guilty);
    GETINT("exposed", st->exposed);
    GETINT("winner", st->winner);
    GETINT("hand_points", st->hand_points);
    GETINT("game_winners", st->game_winners);
    {
        PyObject *x = GETITEM("rng");
        if (!x) goto fail;
        st->rng = PyLong_AsUnsignedLongLong(x);
        if (PyErr_Occurred()) goto fail;
    }
    if (PyErr_Occurred()) goto fail;
    return (PyObject *)obj;
fail:
    Py_DECREF(obj);
    return NULL;
}

/* play_hands(tables, seeds, dealer, candidates, dealers, policies, pick_seed, max_actions[, fast])
 * -> (winners, actions, hand_points, points, scores, decisions, uno_calls): one hand per seed (an
 * array of uint64 seeds), played to its end by the seats' policies (bytes, one per seat:
 * 0 random, 1 plays-first, 2 greedy). The dealer: ``dealers[h]`` when ``dealers`` has one byte per
 * hand; else ``dealer`` (a seat; -1: drawn among ``candidates``; -2: seed % n). ``fast``: every
 * shuffle is shuffle_fast's (other deals than the Python engine's, far cheaper). The picks of hand
 * h come from a stream seeded by (pick_seed, seeds[h]), so a hand's result depends on its seed,
 * its dealer and pick_seed alone, never on the batch it is played in. Returns bytes: int8
 * winners; int32 actions and hand points; int32 per seat and hand (n per hand): points left in
 * hand, scores (the hand's, from zero), decisions, plays of the next-to-last card (UNO called). */
static PyObject *py_play_hands(PyObject *mod, PyObject *args) {
    TablesObject *tables;
    PyObject *seeds_obj, *cand_obj, *pol_obj, *dealers_obj;
    int dealer_arg, cand[MAXP], ncand = 0, fast = 0;
    unsigned long long pick_seed;
    long long max_actions;
    if (!PyArg_ParseTuple(args, "O!OiOOOKL|p", &TablesType, &tables, &seeds_obj, &dealer_arg, &cand_obj,
                          &dealers_obj, &pol_obj, &pick_seed, &max_actions, &fast))
        return NULL;
    const Tables *tb = &tables->tb;
    int n = tb->n;
    uint8_t policies[MAXP];
    Py_buffer sv, pv, dv;
    if (dealer_arg == -1 && parse_candidates(cand_obj, n, cand, &ncand) < 0) return NULL;
    if (dealer_arg >= n || dealer_arg < -2) {
        PyErr_SetString(PyExc_ValueError, "bad dealer");
        return NULL;
    }
    if (read_bytes(pol_obj, n, "policies", &pv) < 0) return NULL;
    memcpy(policies, pv.buf, (size_t)n);
    PyBuffer_Release(&pv);
    for (int s = 0; s < n; s++)
        if (policies[s] > POL_GREEDY) {
            PyErr_SetString(PyExc_ValueError, "unknown policy");
            return NULL;
        }
    if (PyObject_GetBuffer(seeds_obj, &sv, PyBUF_SIMPLE) < 0) return NULL;
    if (PyObject_GetBuffer(dealers_obj, &dv, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&sv);
        return NULL;
    }
    Py_ssize_t count = sv.len / 8;
    PyObject *w = NULL, *a = NULL, *hp = NULL, *pts = NULL, *sc = NULL, *dec = NULL, *unos = NULL;
    if (sv.len % 8 || (dv.len && dv.len != count)) {
        PyErr_SetString(PyExc_ValueError, "seeds must be 64-bit numbers, dealers one byte per seed or none");
        goto fail;
    }
    for (Py_ssize_t i = 0; i < dv.len; i++)
        if (((uint8_t *)dv.buf)[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "bad dealer");
            goto fail;
        }
    w = PyBytes_FromStringAndSize(NULL, count);
    a = PyBytes_FromStringAndSize(NULL, count * 4);
    hp = PyBytes_FromStringAndSize(NULL, count * 4);
    pts = PyBytes_FromStringAndSize(NULL, count * 4 * n);
    sc = PyBytes_FromStringAndSize(NULL, count * 4 * n);
    dec = PyBytes_FromStringAndSize(NULL, count * 4 * n);
    unos = PyBytes_FromStringAndSize(NULL, count * 4 * n);
    if (!w || !a || !hp || !pts || !sc || !dec || !unos) goto fail;
    int8_t *winners = (int8_t *)PyBytes_AS_STRING(w);
    int32_t *actions = (int32_t *)PyBytes_AS_STRING(a), *hand_pts = (int32_t *)PyBytes_AS_STRING(hp),
            *points = (int32_t *)PyBytes_AS_STRING(pts), *scores = (int32_t *)PyBytes_AS_STRING(sc),
            *decisions = (int32_t *)PyBytes_AS_STRING(dec), *uno_calls = (int32_t *)PyBytes_AS_STRING(unos);
    const uint64_t *seeds = sv.buf;
    const uint8_t *dealers = dv.len ? dv.buf : NULL;
    int err = 0;
    memset(decisions, 0, (size_t)(count * n) * 4);
    memset(uno_calls, 0, (size_t)(count * n) * 4);
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t h = 0; h < count && !err; h++) {
        UState st;
        int ids[MAXIDS], c2[MAXP];
        memcpy(c2, cand, sizeof cand);
        uint64_t seed = seeds[h];
        int dealer = dealers ? dealers[h] : dealer_arg == -2 ? (int)(seed % (uint64_t)n) : dealer_arg;
        if (new_hand(tb, &st, seed, dealer, c2, ncand, fast) < 0) {
            err = 1;
            break;
        }
        Picker pk = {seed_to_rng(pick_seed ^ seed_to_rng(seed))};
        long long count_actions = 0;
        int32_t *dec_h = decisions + h * n, *uno_h = uno_calls + h * n;
        while (st.current >= 0) {
            if (count_actions >= max_actions) {
                err = 2;
                break;
            }
            int seat = st.current;
            int k = legal_ids(tb, &st, seat, ids);
            int aid = policy_choose(tb, &st, seat, policies[seat], &pk, ids, k);
            dec_h[seat]++;
            if (tb->a_uno[aid]) uno_h[seat]++;
            step(tb, &st, seat, aid);
            count_actions++;
        }
        winners[h] = st.winner;
        actions[h] = (int32_t)count_actions;
        hand_pts[h] = st.hand_points;
        hand_points_of(tb, &st, points + h * n);
        memcpy(scores + h * n, st.scores, (size_t)n * 4);
    }
    Py_END_ALLOW_THREADS;
    if (err) {
        PyErr_SetString(PyExc_RuntimeError, err == 1 ? "a deal failed" : "a hand did not end within max_actions");
        goto fail;
    }
    PyBuffer_Release(&sv);
    PyBuffer_Release(&dv);
    return Py_BuildValue("(NNNNNNN)", w, a, hp, pts, sc, dec, unos);
fail:
    PyBuffer_Release(&sv);
    PyBuffer_Release(&dv);
    Py_XDECREF(w);
    Py_XDECREF(a);
    Py_XDECREF(hp);
    Py_XDECREF(pts);
    Py_XDECREF(sc);
    Py_XDECREF(dec);
    Py_XDECREF(unos);
    return NULL;
}

/* shuffle(rng, cards[, fast]) -> (cards, rng): one shuffle from generator state rng (tests). */
static PyObject *py_shuffle(PyObject *mod, PyObject *args) {
    unsigned long long rng;
    Py_buffer v;
    int fast = 0;
    if (!PyArg_ParseTuple(args, "Ky*|p", &rng, &v, &fast)) return NULL;
    if (v.len > MAXC) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "at most 112 cards");
        return NULL;
    }
    uint8_t cards[MAXC];
    memcpy(cards, v.buf, (size_t)v.len);
    uint64_t r = rng;
    if (fast)
        shuffle_fast(&r, cards, (int)v.len);
    else
        shuffle_cards(&r, cards, (int)v.len);
    PyObject *out = Py_BuildValue("(y#K)", cards, v.len, (unsigned long long)r);
    PyBuffer_Release(&v);
    return out;
}

static PyObject *py_state_size(PyObject *mod, PyObject *unused) { return PyLong_FromSize_t(sizeof(UState)); }

static PyMethodDef module_methods[] = {
    {"new_hand", py_new_hand, METH_VARARGS, "new_hand(tables, seed, dealer, candidates) -> State"},
    {"load", py_load, METH_VARARGS, "load(tables, fields) -> State"},
    {"play_hands", py_play_hands, METH_VARARGS,
     "play_hands(tables, seeds, dealer, candidates, dealers, policies, pick_seed, max_actions) -> bytes tuple"},
    {"shuffle", py_shuffle, METH_VARARGS, "shuffle(rng, cards, fast=False) -> (cards, rng): engine._shuffle, or the fast one"},
    {"state_size", py_state_size, METH_NOARGS, "Bytes of one state in the batched loops."},
    {NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "unotable.native._core",
                                    "The native core of unotable (see the C source).", -1, module_methods};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&StateType) < 0 || PyType_Ready(&BatchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    PyModule_AddObject(m, "Tables", (PyObject *)&TablesType);
    Py_INCREF(&StateType);
    PyModule_AddObject(m, "State", (PyObject *)&StateType);
    Py_INCREF(&BatchType);
    PyModule_AddObject(m, "Batch", (PyObject *)&BatchType);
    PyModule_AddIntConstant(m, "OBS_SIZE", OBS_SIZE);
    return m;
}
