/* The research environment's tables in C (issue 15): EnvBatch steps N tables exactly as
 * unotable.env.vector.PythonBackend steps N unotable.env.driver.Driver objects, and writes what
 * it writes (the observation of unotable.env.encoding.Layout, the mask of write_mask, the agent
 * to act, rewards, end flags) into the caller's numpy arrays. Included by _core.c only, after
 * loops.h; it uses UState, Tables and legal_ids / step / new_hand of rules.h as they are.
 *
 * Who acts (env/driver.py): after every action and at a deal, each seat with an out-of-turn
 * action (a late ``uno``, a ``catch``) gets a window turn, in the window order, where it acts or
 * declines; an action opens a new round; once every such seat has declined, the seat the phase
 * waits for gets its phase turn. The random window order and the deal seeds come from each
 * table's own Mersenne Twister, the generator of Python's ``random.Random``, loaded from the
 * Driver's generator (``Random(seed).getstate()``): ``getrandbits`` and ``shuffle`` below are
 * CPython's, so a table here follows a Driver from the same seed action for action.
 *
 * The observation is built from the acting seat's view only (views.view): its own hand, the
 * discard pile, the public state, the hand sizes, and the cards of others whose known-mask has
 * its bit; never another hand or the draw pile's order. */
#ifndef UNOTABLE_ENVLOOP_H
#define UNOTABLE_ENVLOOP_H

#include "pyrandom.h"

/* ------------------------------------------------------------------------------------------ */
/* match.hand_seed: the first 8 bytes, big-endian, of BLAKE2b("SEED:HAND", digest_size=8,
 * person=b"unotable-hand"): the seed of hand HAND of a game seeded SEED (P-19). */

static const uint64_t B2_IV[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                                  0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                  0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
static const uint8_t B2_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};
#define B2_ROTR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define B2_G(a, b, c, d, x, y)      \
    do {                            \
        a = a + b + (x);            \
        d = B2_ROTR(d ^ a, 32);     \
        c = c + d;                  \
        b = B2_ROTR(b ^ c, 24);     \
        a = a + b + (y);            \
        d = B2_ROTR(d ^ a, 16);     \
        c = c + d;                  \
        b = B2_ROTR(b ^ c, 63);     \
    } while (0)

static uint64_t load_le64(const uint8_t *p) {
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = (x << 8) | p[i];
    return x;
}

static uint64_t hand_seed(uint64_t seed, uint32_t hand) {
    static const uint8_t person[16] = "unotable-hand";
    uint8_t block[128];
    memset(block, 0, sizeof block);
    int len = snprintf((char *)block, sizeof block, "%llu:%u", (unsigned long long)seed, hand);
    uint64_t h[8], v[16], m[16];
    for (int i = 0; i < 8; i++) h[i] = B2_IV[i];
    h[0] ^= 0x01010008ULL; /* digest 8 bytes, no key, fanout 1, depth 1 */
    h[6] ^= load_le64(person);
    h[7] ^= load_le64(person + 8);
    for (int i = 0; i < 16; i++) m[i] = load_le64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = B2_IV[i];
    }
    v[12] ^= (uint64_t)len;
    v[14] = ~v[14]; /* the last block */
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = B2_SIGMA[r];
        B2_G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        B2_G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        B2_G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        B2_G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        B2_G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        B2_G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        B2_G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        B2_G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    uint64_t h0 = h[0] ^ v[0] ^ v[8];
    return __builtin_bswap64(h0); /* its bytes little-endian, read big-endian */
}

/* ------------------------------------------------------------------------------------------ */
/* The tables and the Python type. */

/* Offsets of the observation's segments (encoding.Layout), in the order the glue passes them. */
enum {
    L_SIZE, L_HAND, L_TOP, L_COLOR, L_DIR, L_PHASE, L_WINDOW, L_CURRENT, L_DRAWN, L_PFROM, L_PCOLOR,
    L_AFTER, L_SIZES, L_EXPOSED, L_FACING, L_WRONG, L_DEALER, L_KNOWN, L_DISCARD, L_PILE, L_SCORES,
    L_COUNT
};

typedef struct {
    UState st;
    int32_t actions; /* in this episode, declines included (Driver.actions) */
    uint32_t hand;   /* a game episode: the hand's number in the game, from 0 */
    uint64_t game_seed; /* a game episode: the game's seed (Game.seed) */
    int8_t actor;    /* the seat to act (a hand episode: the player) */
    int8_t window;   /* the actor's turn is an out-of-turn moment */
    int8_t qlen;     /* seats still to be asked in this round, popped from the end */
    int8_t queue[MAXP];
    int32_t hand_actions; /* in the hand in play, declines included (Driver.hand_actions) */
    uint64_t offered[NAMAX / 64]; /* the env ids the actor may take now (the mask, kept here) */
} EnvTable;

/* Who plays a seat of an env table: the caller (the learner, or every seat in self-play), or a
 * bot played here from its seat's view (bots/simple.py's GreedyBot and RandomBot at their
 * defaults, as the Python backend plays them). */
enum { SEAT_CALLER = -1, SEAT_RANDOM = POL_RANDOM, SEAT_GREEDY = POL_GREEDY };

/* Deals in a row the bots may end before the learner's first turn (vector.MAX_REDEALS). */
#define ENV_MAX_REDEALS 1000
#define ENV_ERR_REDEALS (-100)

typedef struct {
    PyObject_HEAD TablesObject *tables;
    Py_ssize_t num;
    int learner;     /* against bots: the learner's seat; -1: self-play */
    int8_t seat[MAXP]; /* SEAT_CALLER or the bot of each seat */
    int nrandom;     /* seats played by the random bot (each with its generator per table) */
    int points;      /* reward "points" (else "win") */
    int game;        /* episode "game" (solo, partners, teams: one table, seats = players) */
    int play_order;  /* window_order "play" (else "random") */
    int32_t max_actions; /* 0: none */
    int32_t max_hand_actions; /* 0: none (Driver.max_hand_actions) */
    int dealer, ncand, cand[MAXP]; /* dealer >= 0: that seat; else drawn among cand */
    int nenv;        /* env ids, decline (the last) included */
    int32_t lay[L_COUNT];
    int16_t env_id[NAMAX];  /* notation id -> env id, or -1 */
    int16_t note_id[NAMAX]; /* env id -> notation id (decline: -1) */
    uint8_t is_window[NAMAX];
    EnvTable *t;
    PyRandom *rng;
    PyRandom *bot_rng; /* num * MAXP generators when a seat is the random bot, else NULL */
    int ready;
    /* the PettingZoo env's one table (aec.py): its observation, mask and rewards rows, held */
    Py_buffer b_obs, b_mask, b_rw;
    int bound;
} EnvObject;

static PyTypeObject EnvType;

/* Driver._open_round: queue the seats that may act out of turn, in the window order. */
static void env_open_round(const EnvObject *e, EnvTable *t, PyRandom *r) {
    const Tables *tb = &e->tables->tb;
    const UState *st = &t->st;
    int n = st->n, q = 0, ids[MAXIDS];
    /* without an exposed seat no one has an out-of-turn action (the glue refuses lenient plays
     * and jump-ins, the other windows) */
    if (st->phase < P_HAND_OVER && st->exposed) {
        int cur = st->current;
        for (int s = 0; s < n; s++) {
            int k = legal_ids(tb, st, s, ids), any = s != cur;
            for (int i = 0; i < k && !any; i++) any = e->is_window[ids[i]];
            if (k && any) t->queue[q++] = (int8_t)s;
        }
        if (q > 1) {
            if (!e->play_order) {
                mt_shuffle(r, t->queue, q);
            } else { /* by ((s - cur) * d) % n: from the current seat in the direction of play */
                int8_t sorted[MAXP];
                int m = 0;
                for (int j = 0; j < n; j++) {
                    int s = mod_seat(cur + j * st->direction % n, n);
                    for (int i = 0; i < q; i++)
                        if (t->queue[i] == s) sorted[m++] = (int8_t)s;
                }
                memcpy(t->queue, sorted, (size_t)q);
            }
        }
    }
    for (int i = 0, j = q - 1; i < j; i++, j--) { /* popped from the end */
        int8_t c = t->queue[i];
        t->queue[i] = t->queue[j];
        t->queue[j] = c;
    }
    t->qlen = (int8_t)q;
}

/* Driver._next_turn */
static inline void env_next_turn(EnvTable *t) {
    if (t->qlen) {
        t->actor = t->queue[--t->qlen];
        t->window = 1;
    } else {
        t->window = 0;
        t->actor = t->st.current;
    }
}

/* Driver.reset (the generator goes on): deal from getrandbits(63) (a game: Game.new with that
 * seed deals its hand 0 from hand_seed), open the first round. */
static int env_deal(const EnvObject *e, EnvTable *t, PyRandom *r) {
    int cand[MAXP];
    memcpy(cand, e->cand, sizeof cand);
    uint64_t seed = mt_bits63(r);
    if (e->game) {
        t->game_seed = seed;
        t->hand = 0;
        seed = hand_seed(seed, 0);
    }
    int rc = new_hand(&e->tables->tb, &t->st, seed, e->dealer, cand, e->ncand, 0);
    if (rc < 0) return rc;
    t->actions = 0;
    t->hand_actions = 0;
    env_open_round(e, t, r);
    env_next_turn(t);
    return 0;
}

/* Game.next_hand (solo, partners, teams): the next hand's seed, the dealer one seat to the
 * left of the last one (P-18), the scores carried on (the game's totals are the hand's scores). */
static int env_next_hand(const EnvObject *e, EnvTable *t) {
    int32_t scores[MAXP];
    int n = t->st.n, dealer = mod_seat(t->st.dealer + 1, n);
    memcpy(scores, t->st.scores, sizeof scores);
    t->hand++;
    int rc = new_hand(&e->tables->tb, &t->st, hand_seed(t->game_seed, t->hand), dealer, NULL, 0, 0);
    if (rc < 0) return rc;
    memcpy(t->st.scores, scores, sizeof scores);
    t->hand_actions = 0;
    return 0;
}

/* What the actor may do (encoding.turn_ids): a window turn offers its out-of-turn actions (all
 * of them for a seat the phase does not wait for) and decline; a phase turn the others. */
static void env_mask(const EnvObject *e, EnvTable *t, int8_t *mask) {
    const Tables *tb = &e->tables->tb;
    const UState *st = &t->st;
    int seat = t->actor, ids[MAXIDS], k = legal_ids(tb, st, seat, ids);
    int all = t->window && seat != st->current;
    memset(mask, 0, (size_t)e->nenv);
    memset(t->offered, 0, sizeof t->offered);
    for (int i = 0; i < k; i++) {
        int a = ids[i];
        if (all || e->is_window[a] == t->window) {
            int x = e->env_id[a];
            mask[x] = 1;
            t->offered[x >> 6] |= 1ULL << (x & 63);
        }
    }
    if (t->window) {
        int x = e->nenv - 1;
        mask[x] = 1;
        t->offered[x >> 6] |= 1ULL << (x & 63);
    }
}

/* encoding.Layout.encode of ``seat``'s view (``window``: its turn is an out-of-turn moment):
 * seats relative to it, ``(s - seat) % n``. */
static void env_observe(const EnvObject *e, const EnvTable *t, int seat, int window, float *o) {
    const int32_t *L = e->lay;
    const UState *st = &t->st;
    int n = st->n;
#define REL(s) mod_seat((s) - seat, n)
    memset(o, 0, (size_t)L[L_SIZE] * sizeof(float));
    for (int p = HAND_BEGIN(st, seat); p < HAND_END(st, seat); p++) o[L[L_HAND] + st->cards[p]] += 1.0f;
    for (int p = st->start[SEG_DISCARD(st)]; p < st->ncards; p++) o[L[L_DISCARD] + st->cards[p]] += 1.0f;
    o[L[L_TOP] + TOP(st)] = 1.0f;
    o[L[L_COLOR] + (st->color >= 0 ? st->color : 4)] = 1.0f;
    if (st->direction > 0) o[L[L_DIR]] = 1.0f;
    o[L[L_PHASE] + st->phase] = 1.0f;
    if (window) o[L[L_WINDOW]] = 1.0f;
    if (st->current >= 0) o[L[L_CURRENT] + REL(st->current)] = 1.0f;
    if (st->current == seat && st->drawn >= 0) o[L[L_DRAWN] + st->drawn] = 1.0f;
    if (st->pend_from >= 0) {
        o[L[L_PFROM] + REL(st->pend_from)] = 1.0f;
        o[L[L_PCOLOR] + (st->pend_color >= 0 ? st->pend_color : 4)] = 1.0f;
    }
    if (st->after_color >= 0) o[L[L_AFTER] + REL(st->after_color)] = 1.0f;
    for (int s = 0; s < n; s++) {
        int r = REL(s);
        if (st->exposed >> s & 1) o[L[L_EXPOSED] + r] = 1.0f;
        int f = st->drew_facing[s];
        if (f >= 0) {
            int c = f / NT - 1;
            o[L[L_FACING] + r * 5 + (c >= 0 ? c : 4)] = 1.0f;
        }
        o[L[L_SIZES] + r] = (float)HAND_LEN(st, s);
    }
    o[L[L_DEALER] + REL(st->dealer)] = 1.0f;
    if (st->any_known) {
        uint16_t bit = (uint16_t)(1u << seat);
        for (int s = 0; s < n; s++) {
            if (s == seat) continue;
            float *known = o + L[L_KNOWN] + (REL(s) - 1) * NT;
            for (int p = HAND_BEGIN(st, s); p < HAND_END(st, s); p++)
                if (st->known[p] & bit) known[st->cards[p]] += 1.0f;
        }
    }
    o[L[L_PILE]] = (float)((double)DRAW_LEN(st) / 100.0);
    /* scores (zero all through a hand episode; kept for a state loaded with scores) */
    const Tables *tb = &e->tables->tb;
    int any = 0, slots = tb->teams ? 2 : n;
    for (int s = 0; s < slots; s++) any |= st->scores[s] != 0;
    if (any) {
        if (tb->teams) {
            int team = seat % 2;
            o[L[L_SCORES]] = (float)((double)st->scores[team] / 100.0);
            o[L[L_SCORES] + 1] = (float)((double)st->scores[1 - team] / 100.0);
        } else {
            for (int k = 0; k < slots; k++) o[L[L_SCORES] + k] = (float)((double)st->scores[(seat + k) % slots] / 100.0);
        }
    }
#undef REL
}

/* Driver._score: +1 / -1 by side ("win"), or minus the points held and their sum shared by the
 * winner's side ("points"); one float per seat. */
static void env_score(const EnvObject *e, const UState *st, float *rewards) {
    const Tables *tb = &e->tables->tb;
    int n = st->n, w = st->winner, side[MAXP], nside = 0;
    for (int s = 0; s < n; s++) {
        side[s] = tb->teams ? (s % 2 == w % 2) : (s == w);
        nside += side[s];
    }
    if (!e->points) {
        for (int s = 0; s < n; s++) rewards[s] = side[s] ? 1.0f : -1.0f;
        return;
    }
    int points[MAXP];
    double total = 0.0;
    hand_points_of(tb, st, points);
    for (int s = 0; s < n; s++)
        if (!side[s]) {
            rewards[s] = (float)-(double)points[s];
            total += (double)points[s];
        }
    for (int s = 0; s < n; s++)
        if (side[s]) rewards[s] = (float)(total / (double)nside);
}

/* The arrays of unotable.env.vector.Batch, checked by size. */
typedef struct {
    Py_buffer obs, mask, agent, rewards, term, trunc, final;
    int got;
} EnvOut;

#define ENV_ARRAYS 7

static void env_release(EnvOut *out) {
    Py_buffer *v[ENV_ARRAYS] = {&out->obs, &out->mask, &out->agent, &out->rewards, &out->term, &out->trunc, &out->final};
    for (int i = 0; i < out->got; i++) PyBuffer_Release(v[i]);
    out->got = 0;
}

static int env_buffers(const EnvObject *e, PyObject *const *objs, EnvOut *out) {
    Py_ssize_t num = e->num, n = e->tables->tb.n;
    Py_ssize_t need[ENV_ARRAYS] = {num * e->lay[L_SIZE] * 4, num * e->nenv, num * 8, num * n * 4, num, num,
                                   num * e->lay[L_SIZE] * 4};
    const char *what[ENV_ARRAYS] = {"observation", "action_mask", "agent", "rewards", "terminated", "truncated",
                                    "final_observation"};
    Py_buffer *v[ENV_ARRAYS] = {&out->obs, &out->mask, &out->agent, &out->rewards, &out->term, &out->trunc,
                                &out->final};
    out->got = 0;
    for (int i = 0; i < ENV_ARRAYS; i++) {
        if (writable(objs[i], v[i], need[i], what[i]) < 0) {
            env_release(out);
            return -1;
        }
        out->got = i + 1;
    }
    return 0;
}

static void env_write(const EnvObject *e, Py_ssize_t i, EnvTable *t, EnvOut *out) {
    env_observe(e, t, t->actor, t->window, (float *)out->obs.buf + i * e->lay[L_SIZE]);
    env_mask(e, t, (int8_t *)out->mask.buf + i * e->nenv);
    ((int64_t *)out->agent.buf)[i] = t->actor;
}

/* Driver.act: the actor takes env id ``a`` (decline: the last); the rewards it brings are added
 * to ``rw`` (one float per seat). Returns 0 (the episode goes on), 1 (it ended: terminated), 2
 * (truncated: max_actions or max_hand_actions, Driver._capped) or a negative deal error. */
static inline int env_capped(const EnvObject *e, const EnvTable *t) {
    return (e->max_actions && t->actions >= e->max_actions) ||
           (e->max_hand_actions && t->hand_actions >= e->max_hand_actions);
}

static int env_apply(const EnvObject *e, EnvTable *t, PyRandom *r, int a, float *rw) {
    const Tables *tb = &e->tables->tb;
    t->actions++;
    t->hand_actions++;
    if (a == e->nenv - 1) {
        if (env_capped(e, t)) return 2;
        env_next_turn(t);
        return 0;
    }
    step(tb, &t->st, t->actor, e->note_id[a]);
    if (t->st.phase >= P_HAND_OVER) {
        float got[MAXP];
        env_score(e, &t->st, got);
        for (int s = 0; s < t->st.n; s++) rw[s] += got[s];
        if (!e->game || t->st.phase == P_GAME_OVER) return 1;
        int rc = env_next_hand(e, t);
        if (rc) return rc;
    }
    if (env_capped(e, t)) return 2;
    env_open_round(e, t, r);
    env_next_turn(t);
    return 0;
}

/* The ``uno`` spelling of play ``a`` among ``ids`` (BaseBot.with_call: the bots always call), or ``a``. */
static int with_call(const Tables *tb, int a, const int *ids, int k) {
    if (tb->a_uno[a] || (tb->a_kind[a] != K_PLAY && tb->a_kind[a] != K_INVIS)) return a;
    for (int i = 0; i < k; i++) {
        int b = ids[i];
        if (tb->a_uno[b] && tb->a_kind[b] == tb->a_kind[a] && tb->a_card[b] == tb->a_card[a] &&
            tb->a_arg[b] == tb->a_arg[a])
            return b;
    }
    return a;
}

/* The env id the bot of the actor's seat takes (Bot.react in a window turn, Bot.act in a phase
 * turn), from what its seat may know. */
static int env_bot_action(const EnvObject *e, EnvTable *t, Py_ssize_t i) {
    const Tables *tb = &e->tables->tb;
    const UState *st = &t->st;
    int seat = t->actor, ids[MAXIDS], k = legal_ids(tb, st, seat, ids), bot = e->seat[seat];
    if (t->window) {
        /* BaseBot.react: a late uno (never owed: the bots always call), else greedy catches the
         * first opponent it may (catch 1.0), random none (catch 0.0) */
        for (int j = 0; j < k; j++)
            if (tb->a_kind[ids[j]] == K_UNO) return e->env_id[ids[j]];
        if (bot == SEAT_GREEDY)
            for (int j = 0; j < k; j++)
                if (tb->a_kind[ids[j]] == K_CATCH && !partners(tb, seat, tb->a_arg[ids[j]])) return e->env_id[ids[j]];
        return e->nenv - 1;
    }
    if (bot == SEAT_GREEDY) return e->env_id[greedy_choose(tb, st, seat, ids, k, &GREEDY)];
    /* RandomBot: phase_options (no out-of-turn kind, no uno spelling), rng.choice, the call */
    int opts[MAXIDS], m = 0;
    for (int j = 0; j < k; j++) {
        int kind = tb->a_kind[ids[j]];
        if (kind != K_UNO && kind != K_CATCH && kind != K_WRONG && kind != K_PENALIZE && !tb->a_uno[ids[j]])
            opts[m++] = ids[j];
    }
    for (int j = 1; j < m; j++) { /* in id order, as a view lists them (legal_ids puts draw first) */
        int x = opts[j], h = j;
        for (; h > 0 && opts[h - 1] > x; h--) opts[h] = opts[h - 1];
        opts[h] = x;
    }
    int a = m == 1 ? opts[0] : opts[mt_below(&e->bot_rng[i * MAXP + seat], m)];
    return e->env_id[with_call(tb, a, ids, k)];
}

/* The bots act until the learner's turn; as env_apply, the rewards added to ``rw``. */
static int env_bots(const EnvObject *e, EnvTable *t, PyRandom *r, Py_ssize_t i, float *rw) {
    while (e->seat[t->actor] != SEAT_CALLER) {
        int res = env_apply(e, t, r, env_bot_action(e, t, i), rw);
        if (res) return res;
    }
    return 0;
}

/* Deal the table's next episode up to the learner's first turn: dealt again while the bots end
 * it first (the generator goes on). The rewards before that turn are dropped. 0 or an error. */
static int env_deal_ready(const EnvObject *e, EnvTable *t, PyRandom *r, Py_ssize_t i) {
    for (int deals = 0; deals <= ENV_MAX_REDEALS; deals++) {
        int rc = env_deal(e, t, r);
        if (rc < 0 || e->learner < 0) return rc;
        float scratch[MAXP] = {0};
        int res = env_bots(e, t, r, i, scratch);
        if (res <= 0) return res;
    }
    return ENV_ERR_REDEALS;
}

/* EnvBatch(tables, num, points, play_order, max_actions, dealer, candidates, env_ids, layout, game,
 * seats, max_hand_actions): ``max_hand_actions`` (0: none) truncates a hand that long; ``seats`` (bytes, one per seat, or empty for self-play) says who plays each seat: 255
 * the caller (the learner: exactly one), else the bot (POL_RANDOM, POL_GREEDY). */
static int Env_init(EnvObject *self, PyObject *args, PyObject *kw) {
    TablesObject *tables;
    Py_ssize_t num;
    int points, play_order, max_actions, dealer;
    PyObject *cand_obj, *ids_obj, *lay_obj, *seats_obj = NULL;
    int game = 0, max_hand_actions = 0;
    if (!PyArg_ParseTuple(args, "O!npiiiOOO|pOi", &TablesType, &tables, &num, &points, &play_order, &max_actions,
                          &dealer, &cand_obj, &ids_obj, &lay_obj, &game, &seats_obj, &max_hand_actions))
        return -1;
    const Tables *tb = &tables->tb;
    self->learner = -1;
    self->nrandom = 0;
    memset(self->seat, SEAT_CALLER, sizeof self->seat);
    if (seats_obj && seats_obj != Py_None) {
        Py_buffer sv;
        if (PyObject_GetBuffer(seats_obj, &sv, PyBUF_SIMPLE) < 0) return -1;
        int ok = sv.len == 0 || sv.len == tb->n, callers = 0;
        for (Py_ssize_t s = 0; ok && s < sv.len; s++) {
            int b = ((const uint8_t *)sv.buf)[s];
            if (b == 255) {
                callers++;
                self->learner = (int)s;
            } else if (b == POL_GREEDY || b == POL_RANDOM) {
                self->seat[s] = (int8_t)b;
                self->nrandom += b == POL_RANDOM;
            } else {
                ok = 0;
            }
        }
        if (sv.len && callers != 1) ok = 0;
        PyBuffer_Release(&sv);
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "seats: one byte per seat, 255 for the learner's (one), else a bot");
            return -1;
        }
        if (!sv.len) self->learner = -1;
    }
    if (num < 1 || num > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "an env batch holds 1 to 16,777,216 tables");
        return -1;
    }
    if (max_actions < 0 || max_hand_actions < 0 || dealer >= tb->n) {
        PyErr_SetString(PyExc_ValueError, "bad max_actions, max_hand_actions or dealer");
        return -1;
    }
    self->ncand = 0;
    if (dealer < 0 && parse_candidates(cand_obj, tb->n, self->cand, &self->ncand) < 0) return -1;
    Py_buffer v;
    if (PyObject_GetBuffer(ids_obj, &v, PyBUF_SIMPLE) < 0) return -1;
    /* the notation id of each env id but decline, int16 */
    if (v.len % 2 || v.len / 2 + 1 > NAMAX) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "bad env action table");
        return -1;
    }
    int nids = (int)(v.len / 2);
    memset(self->env_id, 0xFF, sizeof self->env_id);
    for (int i = 0; i < nids; i++) {
        int a = ((const int16_t *)v.buf)[i];
        if (a < 0 || a >= tb->na) {
            PyBuffer_Release(&v);
            PyErr_SetString(PyExc_ValueError, "bad env action table");
            return -1;
        }
        self->note_id[i] = (int16_t)a;
        self->env_id[a] = (int16_t)i;
    }
    PyBuffer_Release(&v);
    self->note_id[nids] = -1;
    self->nenv = nids + 1;
    /* every action a seat can take must have an env id (else the mask would lose it) */
    for (int a = 0; a < tb->na; a++) {
        int kind = tb->a_kind[a];
        self->is_window[a] = kind == K_UNO || kind == K_CATCH || kind == K_WRONG;
    }
    if (read_bytes(lay_obj, L_COUNT * 4, "layout", &v) < 0) return -1;
    memcpy(self->lay, v.buf, sizeof self->lay);
    PyBuffer_Release(&v);
    PyMem_Free(self->t);
    PyMem_Free(self->rng);
    PyMem_Free(self->bot_rng);
    self->t = PyMem_Calloc((size_t)num, sizeof(EnvTable));
    self->rng = PyMem_Calloc((size_t)num, sizeof(PyRandom));
    self->bot_rng = self->nrandom ? PyMem_Calloc((size_t)num * MAXP, sizeof(PyRandom)) : NULL;
    if (!self->t || !self->rng || (self->nrandom && !self->bot_rng)) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(tables);
    Py_XSETREF(self->tables, tables);
    self->num = num;
    self->points = points;
    self->game = game;
    self->play_order = play_order;
    self->max_actions = max_actions;
    self->max_hand_actions = max_hand_actions;
    self->dealer = dealer;
    self->ready = 0;
    return 0;
}

static void env_unbind(EnvObject *self) {
    if (!self->bound) return;
    PyBuffer_Release(&self->b_obs);
    PyBuffer_Release(&self->b_mask);
    PyBuffer_Release(&self->b_rw);
    self->bound = 0;
}

static void Env_dealloc(EnvObject *self) {
    env_unbind(self);
    Py_XDECREF(self->tables);
    PyMem_Free(self->t);
    PyMem_Free(self->rng);
    PyMem_Free(self->bot_rng);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int env_deal_error(int rc) {
    if (rc == ENV_ERR_REDEALS) {
        PyErr_Format(PyExc_RuntimeError, "the bots ended %d deals in a row before the learner's turn", ENV_MAX_REDEALS);
        return -1;
    }
    first_card_error(rc);
    return -1;
}

/* reset(states, observation, action_mask, agent, rewards, terminated, truncated,
 * final_observation, bot_states): ``states`` is num * 625 uint32, each table's
 * Random(seed).getstate() (624 words and the index); ``bot_states`` the same for each random
 * bot, table by table, seat by seat (empty without one); every table deals its episode and
 * writes its first turn (against bots: the learner's). */
static PyObject *Env_reset(EnvObject *self, PyObject *args) {
    PyObject *states_obj, *objs[ENV_ARRAYS], *bots_obj;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &states_obj, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &bots_obj))
        return NULL;
    Py_buffer sv, bv;
    if (read_bytes(states_obj, self->num * (MT_N + 1) * 4, "states", &sv) < 0) return NULL;
    Py_ssize_t nbots = self->num * self->nrandom;
    if (read_bytes(bots_obj, nbots * (MT_N + 1) * 4, "bot_states", &bv) < 0) {
        PyBuffer_Release(&sv);
        return NULL;
    }
    const uint32_t *words = sv.buf, *bot_words = bv.buf;
    for (Py_ssize_t i = 0; i < self->num + nbots; i++) {
        const uint32_t *w = i < self->num ? words + i * (MT_N + 1) : bot_words + (i - self->num) * (MT_N + 1);
        if (!mt_position_ok(w)) {
            if (i < self->num)
                PyErr_Format(PyExc_ValueError, "states: table %zd's generator position is out of range", i);
            else
                PyErr_Format(PyExc_ValueError, "bot_states: bot generator %zd's position is out of range", i - self->num);
            PyBuffer_Release(&sv);
            PyBuffer_Release(&bv);
            return NULL;
        }
    }
    EnvOut out;
    if (env_buffers(self, objs, &out) < 0) {
        PyBuffer_Release(&sv);
        PyBuffer_Release(&bv);
        return NULL;
    }
    for (Py_ssize_t i = 0, b = 0; i < self->num && self->nrandom; i++)
        for (int s = 0; s < self->tables->tb.n; s++)
            if (self->seat[s] == SEAT_RANDOM) mt_load(&self->bot_rng[i * MAXP + s], bot_words + (b++) * (MT_N + 1));
    int rc = 0;
    for (Py_ssize_t i = 0; i < self->num && !rc; i++) {
        PyRandom *r = &self->rng[i];
        mt_load(r, words + i * (MT_N + 1));
        rc = env_deal_ready(self, &self->t[i], r, i);
        if (!rc) env_write(self, i, &self->t[i], &out);
    }
    if (!rc) {
        memset(out.rewards.buf, 0, (size_t)out.rewards.len);
        memset(out.term.buf, 0, (size_t)self->num);
        memset(out.trunc.buf, 0, (size_t)self->num);
        self->ready = 1;
    } else {
        self->ready = 0;
        env_deal_error(rc);
    }
    env_release(&out);
    PyBuffer_Release(&sv);
    PyBuffer_Release(&bv);
    if (rc) return NULL;
    Py_RETURN_NONE;
}

/* step(actions, observation, action_mask, agent, rewards, terminated, truncated,
 * final_observation): one env id (int64) per table for its actor; all are checked against the
 * offered set before any is applied (a ValueError changes nothing). Against bots, the bots then
 * play to the learner's next turn. An episode that ends (a hand over: terminated; max_actions
 * or max_hand_actions reached: truncated) writes its rewards and its final observation (the learner's view, or the
 * last actor's in self-play, as between turns) and is dealt again at once. */
static PyObject *Env_step(EnvObject *self, PyObject *args) {
    PyObject *act_obj, *objs[ENV_ARRAYS];
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &act_obj, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6]))
        return NULL;
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "reset() first");
        return NULL;
    }
    Py_buffer av;
    if (read_bytes(act_obj, self->num * 8, "actions (int64, one per table)", &av) < 0) return NULL;
    const int64_t *acts = av.buf;
    for (Py_ssize_t i = 0; i < self->num; i++) {
        int64_t a = acts[i];
        if (a < 0 || a >= self->nenv || !(self->t[i].offered[a >> 6] >> (a & 63) & 1)) {
            PyErr_Format(PyExc_ValueError, "table %zd: env action %lld is not allowed for player %d now", i,
                         (long long)a, self->t[i].actor);
            PyBuffer_Release(&av);
            return NULL;
        }
    }
    EnvOut out;
    if (env_buffers(self, objs, &out) < 0) {
        PyBuffer_Release(&av);
        return NULL;
    }
    const Tables *tb = &self->tables->tb;
    int n = tb->n, rc = 0;
    float *rewards = out.rewards.buf, *final = out.final.buf;
    uint8_t *term = out.term.buf, *trunc = out.trunc.buf;
    memset(rewards, 0, (size_t)out.rewards.len);
    for (Py_ssize_t i = 0; i < self->num; i++) {
        EnvTable *t = &self->t[i];
        PyRandom *r = &self->rng[i];
        float *rw = rewards + i * n;
        int res = env_apply(self, t, r, (int)acts[i], rw);
        if (res == 0 && self->learner >= 0) res = env_bots(self, t, r, i, rw);
        term[i] = res == 1;
        trunc[i] = res == 2;
        if (res > 0) {
            env_observe(self, t, self->learner >= 0 ? self->learner : t->actor, 0, final + i * self->lay[L_SIZE]);
            res = env_deal_ready(self, t, r, i);
        }
        if (res < 0) {
            rc = res;
            self->ready = 0;
            env_deal_error(rc);
            break;
        }
        env_write(self, i, t, &out);
    }
    env_release(&out);
    PyBuffer_Release(&av);
    if (rc) return NULL;
    Py_RETURN_NONE;
}

/* load(i, state): table i plays on from a copy of ``state`` (same tables), its
 * round opened afresh; the generator is kept (tests: observations of chosen positions). */
static PyObject *Env_load(EnvObject *self, PyObject *args) {
    Py_ssize_t i;
    StateObject *state;
    if (!PyArg_ParseTuple(args, "nO!", &i, &StateType, &state)) return NULL;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    if (state->tables != self->tables) {
        PyErr_SetString(PyExc_ValueError, "the state was made with other tables");
        return NULL;
    }
    if (state->st.phase >= P_HAND_OVER) {
        PyErr_SetString(PyExc_ValueError, "the hand is over");
        return NULL;
    }
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "reset() first");
        return NULL;
    }
    EnvTable *t = &self->t[i];
    t->st = state->st;
    t->actions = 0;
    t->hand_actions = 0;
    env_open_round(self, t, &self->rng[i]);
    env_next_turn(t);
    Py_RETURN_NONE;
}

/* observe(i, observation_row, mask_row) -> agent: table i's turn written again (tests). */
static PyObject *Env_observe(EnvObject *self, PyObject *args) {
    Py_ssize_t i;
    PyObject *obs_obj, *mask_obj;
    if (!PyArg_ParseTuple(args, "nOO", &i, &obs_obj, &mask_obj)) return NULL;
    if (i < 0 || i >= self->num || !self->ready) {
        PyErr_SetString(PyExc_IndexError, "no such table (or reset() first)");
        return NULL;
    }
    Py_buffer ov, mv;
    if (writable(obs_obj, &ov, self->lay[L_SIZE] * 4, "observation row") < 0) return NULL;
    if (writable(mask_obj, &mv, self->nenv, "mask row") < 0) {
        PyBuffer_Release(&ov);
        return NULL;
    }
    env_observe(self, &self->t[i], self->t[i].actor, self->t[i].window, ov.buf);
    env_mask(self, &self->t[i], mv.buf);
    PyBuffer_Release(&ov);
    PyBuffer_Release(&mv);
    return PyLong_FromLong(self->t[i].actor);
}

/* state(i) -> State: a copy of table i's hand (tests). */
static PyObject *Env_state(EnvObject *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    StateObject *obj = new_state_object(self->tables);
    if (!obj) return NULL;
    obj->st = self->t[i].st;
    return (PyObject *)obj;
}

/* The PettingZoo env (aec.py) steps table 0 one action at a time, never dealt again by itself:
 * bind(observation_row, mask_row, rewards_row) holds its rows (float32 D, int8 A, float32 per
 * seat); act(a) and deal() write the actor's turn into them. */
static PyObject *Env_bind(EnvObject *self, PyObject *args) {
    PyObject *o, *m, *w;
    if (!PyArg_ParseTuple(args, "OOO", &o, &m, &w)) return NULL;
    Py_buffer ob, mb, wb;
    if (writable(o, &ob, self->lay[L_SIZE] * 4, "observation row") < 0) return NULL;
    if (writable(m, &mb, self->nenv, "mask row") < 0) {
        PyBuffer_Release(&ob);
        return NULL;
    }
    if (writable(w, &wb, self->tables->tb.n * 4, "rewards row") < 0) {
        PyBuffer_Release(&ob);
        PyBuffer_Release(&mb);
        return NULL;
    }
    env_unbind(self);
    self->b_obs = ob;
    self->b_mask = mb;
    self->b_rw = wb;
    self->bound = 1;
    Py_RETURN_NONE;
}

static int env_bound_ready(const EnvObject *self) {
    if (!self->bound || !self->ready) {
        PyErr_SetString(PyExc_ValueError, "bind() and reset() first");
        return -1;
    }
    return 0;
}

/* act(a) -> (end, actor, window, scored): table 0's actor takes env id ``a`` (refused with a
 * ValueError, nothing changed, unless offered), the bots play to the learner's turn; ``end`` 0
 * (goes on: the rows hold the new actor's turn), 1 (terminated) or 2 (truncated: the table then
 * offers nothing until deal()); ``scored``: a hand ended and the rewards row holds what it paid. */
static PyObject *Env_act(EnvObject *self, PyObject *arg) {
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred()) return NULL;
    if (env_bound_ready(self) < 0) return NULL;
    EnvTable *t = &self->t[0];
    if (a < 0 || a >= self->nenv || !(t->offered[a >> 6] >> (a & 63) & 1)) {
        PyErr_Format(PyExc_ValueError, "env action %ld is not allowed for player %d now", a, t->actor);
        return NULL;
    }
    float *rw = self->b_rw.buf;
    memset(rw, 0, (size_t)self->b_rw.len);
    uint32_t hand = t->hand;
    int res = env_apply(self, t, &self->rng[0], (int)a, rw);
    if (res == 0 && self->learner >= 0) res = env_bots(self, t, &self->rng[0], 0, rw);
    if (res < 0) {
        self->ready = 0;
        env_deal_error(res);
        return NULL;
    }
    int scored = res == 1 || t->hand != hand;
    if (res > 0) {
        memset(t->offered, 0, sizeof t->offered);
        memset(self->b_mask.buf, 0, (size_t)self->nenv);
        t->qlen = 0;
        t->window = 0;
    } else {
        env_observe(self, t, t->actor, t->window, self->b_obs.buf);
        env_mask(self, t, self->b_mask.buf);
    }
    return Py_BuildValue("(iiii)", res, t->actor, t->window, scored);
}

/* deal() -> (actor, window): table 0's next episode from its generator (Driver.reset()). */
static PyObject *Env_deal(EnvObject *self, PyObject *unused) {
    (void)unused;
    if (env_bound_ready(self) < 0) return NULL;
    EnvTable *t = &self->t[0];
    int rc = env_deal_ready(self, t, &self->rng[0], 0);
    if (rc < 0) {
        self->ready = 0;
        env_deal_error(rc);
        return NULL;
    }
    env_observe(self, t, t->actor, t->window, self->b_obs.buf);
    env_mask(self, t, self->b_mask.buf);
    return Py_BuildValue("(ii)", t->actor, t->window);
}

/* observe_seat(seat, observation_row): table 0 seen by ``seat`` between its turns (window 0). */
static PyObject *Env_observe_seat(EnvObject *self, PyObject *args) {
    int seat;
    PyObject *o;
    if (!PyArg_ParseTuple(args, "iO", &seat, &o)) return NULL;
    if (!self->ready || seat < 0 || seat >= self->tables->tb.n) {
        PyErr_SetString(PyExc_ValueError, "no such seat (or reset() first)");
        return NULL;
    }
    Py_buffer ob;
    if (writable(o, &ob, self->lay[L_SIZE] * 4, "observation row") < 0) return NULL;
    env_observe(self, &self->t[0], seat, 0, ob.buf);
    PyBuffer_Release(&ob);
    Py_RETURN_NONE;
}

/* progress(i) -> (hand_actions, hand): the hand's actions and its number in a game (tests, aec). */
static PyObject *Env_progress(EnvObject *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    return Py_BuildValue("(ik)", self->t[i].hand_actions, (unsigned long)self->t[i].hand);
}

/* turn(i) -> (actor, window, actions): who acts at table i (tests). */
static PyObject *Env_turn(EnvObject *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->num) {
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    const EnvTable *t = &self->t[i];
    return Py_BuildValue("(iii)", t->actor, t->window, t->actions);
}

static PyMethodDef Env_methods[] = {
    {"reset", (PyCFunction)Env_reset, METH_VARARGS,
     "reset(states, observation, action_mask, agent, rewards, terminated, truncated, final_observation, "
     "bot_states)"},
    {"step", (PyCFunction)Env_step, METH_VARARGS,
     "step(actions, observation, action_mask, agent, rewards, terminated, truncated, final_observation)"},
    {"load", (PyCFunction)Env_load, METH_VARARGS, "load(i, state): table i plays on from a copy of state."},
    {"observe", (PyCFunction)Env_observe, METH_VARARGS, "observe(i, obs_row, mask_row) -> agent"},
    {"state", (PyCFunction)Env_state, METH_O, "A copy of one table's state."},
    {"turn", (PyCFunction)Env_turn, METH_O, "turn(i) -> (actor, window, actions)"},
    {"bind", (PyCFunction)Env_bind, METH_VARARGS, "bind(obs_row, mask_row, rewards_row): table 0's rows"},
    {"act", (PyCFunction)Env_act, METH_O, "act(a) -> (end, actor, window, scored): table 0"},
    {"deal", (PyCFunction)Env_deal, METH_NOARGS, "deal() -> (actor, window): table 0's next episode"},
    {"observe_seat", (PyCFunction)Env_observe_seat, METH_VARARGS, "observe_seat(seat, obs_row): table 0"},
    {"progress", (PyCFunction)Env_progress, METH_O, "progress(i) -> (hand_actions, hand)"},
    {NULL}};

static PyTypeObject EnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unotable.native._core.EnvBatch",
    .tp_basicsize = sizeof(EnvObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Env_init,
    .tp_dealloc = (destructor)Env_dealloc,
    .tp_methods = Env_methods,
    .tp_doc = "The research env's tables in C (see unotable.env.native).",
};

#endif /* UNOTABLE_ENVLOOP_H */
