/* Policies played inside the core: random, plays-first, greedy (bots/simple.GreedyBot at its
 * defaults) and the search bot's playout policy (bots/rollout.py). Included by _core.c only. */
#ifndef UNOTABLE_POLICIES_H
#define UNOTABLE_POLICIES_H

#include "rules.h"

/* ------------------------------------------------------------------------------------------ */
/* Policies for the batched loops. */

typedef struct {
    uint64_t s;
} Picker;

static inline uint32_t pick_word(Picker *p) { return (uint32_t)(next_random(&p->s) >> 32); }

/* A uniform index below ``m`` from the next word (Lemire's multiply-shift: no division). */
static inline int pick_below(Picker *p, int m) { return (int)(((uint64_t)pick_word(p) * (uint32_t)m) >> 32); }

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
/* The next playable card type of playable_bits' answer, lowest first, the Mater last (it has
 * no bit); call while ``*bits || *mater``. */
static inline int next_playable(uint64_t *bits, int *mater) {
    if (*bits) {
        int t = __builtin_ctzll(*bits);
        *bits &= *bits - 1;
        return t;
    }
    *mater = 0;
    return C_MATER;
}

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
    int ways[MAXP * 2] = {0}, m = 0;
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
        int best = -1, mater;
        double best_score = 0;
        (void)n;
        uint64_t bits = playable_bits(tb, st, me, &mater);
        while (bits || mater) { /* by card type, the first of the best wins (max) */
            int t = next_playable(&bits, &mater);
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
        int best = -1, count = 0, mater;
        double best_score = -1e9;
        uint64_t bits = playable_bits(tb, st, seat, &mater);
        while (bits || mater) { /* by card type */
            int t = next_playable(&bits, &mater);
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
    if (policy == POL_PLAYS_FIRST && m > 1) {
        /* uniform over the plays: draw comes first and pass last in every list of ids */
        int lo = opts[0] == tb->draw_id, hi = m - (opts[m - 1] == tb->pass_id);
        if (hi > lo) return opts[lo + pick_below(pk, hi - lo)];
    }
    return opts[pick_below(pk, m)];
}


/* The card types each seat holds, kept by play_hands beside its hand so that a turn's playable
 * types are one AND (playable_mask) instead of a walk through the hand (whose length the
 * processor cannot predict). Under the rules this core plays, cards leave a hand only when its
 * seat plays them (held_remove, told by the loop) and join it only at its end (draws, penalties:
 * held_sync finds them by the hands' total size); a rule that moved cards otherwise (7-0's
 * swaps) would have to tell it too. Kept in the loop, not in UState: code that writes a state's
 * cards itself (the search's worlds) needs to know nothing of it. */
typedef struct {
    uint64_t bits[MAXP]; /* types 0-63 held */
    uint8_t count[MAXP][NT];
    uint8_t len[MAXP];
    int total;
} Held;

static inline void held_add(Held *h, int seat, int t) {
    h->count[seat][t]++;
    h->bits[seat] |= (uint64_t)(t < 64) << (t & 63);
    h->len[seat]++;
    h->total++;
}

static inline void held_remove(Held *h, int seat, int t) {
    int left = --h->count[seat][t];
    h->bits[seat] &= ~((uint64_t)(left == 0 && t < 64) << (t & 63));
    h->len[seat]--;
    h->total--;
}

/* The cards that joined the hands since (at their ends); ``seat``'s first (it acted: a draw). */
static inline void held_sync(Held *h, const UState *st, int seat) {
    int total = st->start[st->n + 1] - st->start[1];
    if (total == h->total) return;
    if (total == h->total + 1 && HAND_LEN(st, seat) == h->len[seat] + 1) {
        held_add(h, seat, st->cards[HAND_END(st, seat) - 1]);
        return;
    }
    for (int s = 0; s < st->n; s++)
        while (h->len[s] < HAND_LEN(st, s)) held_add(h, s, st->cards[HAND_BEGIN(st, s) + h->len[s]]);
}

static inline void held_init(Held *h, const UState *st) {
    int n = st->n;
    memset(h->bits, 0, sizeof h->bits);
    memset(h->len, 0, sizeof h->len);
    memset(h->count, 0, (size_t)n * NT);
    h->total = 0;
    for (int s = 0; s < n; s++)
        for (int p = HAND_BEGIN(st, s); p < HAND_END(st, s); p++) held_add(h, s, st->cards[p]);
}

/* The types ``seat`` may play now (phase turn), as playable_bits gives them, without the walk. */
static inline uint64_t held_playable(const Tables *tb, const UState *st, const Held *h, int seat, int *mater) {
    int row = (st->color + 1) * NT + TOP(st);
    *mater = (h->count[seat][C_MATER] != 0) & (tb->playable[row][C_MATER] != 0);
    return h->bits[seat] & tb->playable_mask[row];
}

/* One decision of ``random`` or ``plays-first`` (``policy``) at a turn or after a draw (phases
 * P_TURN and P_AFTER_DRAW): the same word and the same choice as policy_choose over legal_ids'
 * list (draw first, then each playable type's ways in type order, Mater last, pass last),
 * without building it; ``bits`` and ``mater``: the seat's playable types (playable_bits), read
 * at a turn only. Returns the action id; ``*t`` and ``*arg`` its card and argument when it is a
 * play, else ``*t`` = -1. */
static inline __attribute__((always_inline)) int quick_choose(const Tables *tb, const UState *st, int seat,
                                                              int policy, Picker *pk, uint64_t bits, int mater,
                                                              int hw, int *t_out, int *arg_out) {
    int two = HAND_LEN(st, seat) == 2, t, j;
    if (st->phase == P_TURN) {
        int plays = popcount_hw(bits, hw) + 3 * popcount_hw(bits & tb->four_ways, hw) + mater;
        if (bits >> C_HOWLER & 1) plays += st->n - 2;
        /* plays-first draws only with nothing to play (one word still read) */
        j = policy == POL_PLAYS_FIRST ? pick_below(pk, plays ? plays : 1) : pick_below(pk, plays + 1) - 1;
        if (j < 0 || plays == 0) {
            *t_out = -1;
            return tb->draw_id;
        }
        /* the type of the j-th way: among the types of one way below any of more (a wild card's
         * four colours; the commonest case: the first j < 4 bits cleared without a branch) */
        uint64_t single = bits & ~tb->multi_ways, multi = bits & tb->multi_ways;
        int below = multi ? (single >> __builtin_ctzll(multi)) == 0 : 1;
        if (below && j < 4 && j < popcount_hw(single, hw)) {
            for (int i = 1; i < 4; i++) single &= (single - 1) | -(uint64_t)(j < i);
            t = __builtin_ctzll(single);
            j = 0; /* its only way */
        } else {
            for (;;) {
                if (!bits) {
                    t = C_MATER;
                    break;
                }
                t = __builtin_ctzll(bits);
                if (j < tb->ways[t]) break;
                j -= tb->ways[t];
                bits &= bits - 1;
            }
        }
    } else {
        t = st->drawn;
        int w = tb->ways[t];
        j = pick_below(pk, policy == POL_PLAYS_FIRST ? w : w + !tb->must_play_drawn);
        if (j == w) {
            *t_out = -1;
            return tb->pass_id;
        }
    }
    int arg = t == C_HOWLER ? j + (j >= seat) : tb->ways[t] > 1 ? j : -1;
    *t_out = t;
    *arg_out = arg;
    return tb->play_id[t][two][arg + 1];
}

#endif /* UNOTABLE_POLICIES_H */
