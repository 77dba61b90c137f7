"""Types of the C extension (see _core.c)."""

from typing import Any

class Tables:
    def __init__(
        self,
        n: int,
        draw_amount: int,
        response_windows: int,
        suggestion_penalty: int,
        must_play_drawn: int,
        target: int,
        mode: int,
        scoring: int,
        teams: int,
        deck: bytes,
        effect: bytes,
        wild: bytes,
        color: bytes,
        points: bytes,
        playable: bytes,
        blanks: bytes,
        actions: bytes,
        /,
    ) -> None: ...

class State:
    @property
    def current(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def winner(self) -> int: ...
    def legal_ids(self, seat: int, /) -> list[int]: ...
    def step(self, seat: int, aid: int, /) -> None: ...
    def copy(self) -> State: ...
    def playout(
        self, seat: int, aid: int, horizon: int, /
    ) -> tuple[int, int, int, int, list[int], list[int]]: ...
    def rollout_action(self) -> int: ...
    def dump(self) -> dict[str, Any]: ...

def new_hand(tables: Tables, seed: int, dealer: int, candidates: bytes, /) -> State: ...
def load(tables: Tables, fields: dict[str, Any], /) -> State: ...
def play_hands(
    tables: Tables,
    seeds: bytes,
    dealer: int,
    candidates: bytes,
    dealers: bytes,
    policies: bytes,
    pick_seed: int,
    max_actions: int,
    fast: bool = False,
    portable: bool = False,
    /,
) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes, bytes]: ...
def shuffle(rng: int, cards: bytes, fast: bool = False, /) -> tuple[bytes, int]: ...
def state_size() -> int: ...
def shake_x8(numbers: bytes, count: int, level: int, /) -> bytes: ...
def simd_level() -> int: ...

CONSTANTS: dict[str, int]

class EnvBatch:
    def __init__(
        self,
        tables: Tables,
        num: int,
        points: bool,
        play_order: bool,
        max_actions: int,
        dealer: int,
        candidates: bytes,
        env_ids: bytes,
        layout: bytes,
        game: bool = False,
        seats: bytes = b"",
        max_hand_actions: int = 0,
        /,
    ) -> None: ...
    def reset(
        self,
        states: bytes,
        obs: Any,
        mask: Any,
        agent: Any,
        rewards: Any,
        terminated: Any,
        truncated: Any,
        final_observation: Any,
        bot_states: bytes,
        /,
    ) -> None: ...
    def bind(self, obs: Any, mask: Any, rewards: Any, /) -> None: ...
    def act(self, action: int, /) -> tuple[int, int, int, int]: ...
    def deal(self) -> tuple[int, int]: ...
    def observe_seat(self, seat: int, obs: Any, /) -> None: ...
    def progress(self, table: int, /) -> tuple[int, int]: ...
    def step(
        self,
        actions: Any,
        obs: Any,
        mask: Any,
        agent: Any,
        rewards: Any,
        terminated: Any,
        truncated: Any,
        final_observation: Any,
        /,
    ) -> None: ...
    def load(self, table: int, state: State, /) -> None: ...
    def observe(self, table: int, obs: Any, mask: Any, /) -> int: ...
    def state(self, table: int, /) -> State: ...
    def turn(self, table: int, /) -> tuple[int, int, int]: ...

def determinize(
    tables: Tables, view_ints: bytes, view_cards: bytes, trust: float, rng: bytes, /
) -> tuple[State, bytes]: ...
def search(
    tables: Tables,
    view_ints: bytes,
    view_cards: bytes,
    moves: bytes,
    rng: bytes,
    budget: int,
    time_budget: float,
    exploration: float,
    trust: float,
    bluff_prior: float,
    uniform: int,
    horizon: int,
    points_reward: int,
    neumaier: int,
    /,
) -> tuple[list[list[float]], bytes, int]: ...
