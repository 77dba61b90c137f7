"""examples/train.py: a few hundred decisions of training, a resume, and the exported weights
played by the learned bot (skipped without the [train] extra, i.e. PyTorch)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("torch")
pytest.importorskip("numpy")

from unotable.bots import make_bot
from unotable.engine import new_hand
from unotable.rules import Rules, find_edition
from unotable.sim import play_state

TRAIN = Path(__file__).resolve().parent.parent / "examples" / "train.py"


def load_train() -> ModuleType:
    spec = importlib.util.spec_from_file_location("unotable_train_example", TRAIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_training_runs_resumes_and_exports_weights_the_bot_plays(tmp_path: Path) -> None:
    train = load_train()
    out = tmp_path / "run"
    small = ["--out", str(out), "--tables", "6", "--batch", "200", "--minibatch", "64", "--clone", "300"]
    assert train.main([*small, "--updates", "1"]) == 0
    assert (out / "checkpoint.pt").exists() and (out / "learned.npz").exists()
    import torch  # noqa: PLC0415

    first = torch.load(out / "checkpoint.pt", weights_only=False)["state"]
    assert first["updates"] == 1 and first["cloned"] and first["decisions"] >= 200
    assert train.main([*small, "--updates", "2"]) == 0  # resumes: one more update, no new cloning
    second = torch.load(out / "checkpoint.pt", weights_only=False)["state"]
    assert second["updates"] == 2 and second["decisions"] > first["decisions"]
    weights = tmp_path / "exported.npz"
    assert train.main(["--out", str(out), "--export", str(weights)]) == 0
    rng = random.Random(0)
    for edition in ("classic", "harry-potter", "cars2"):
        rules = Rules(edition=find_edition(edition), players=3)
        bots = [make_bot("learned", s, weights=str(weights), sample=True) for s in range(3)]
        st, _ = new_hand(rules, rng.getrandbits(32), record=False)
        play_state(st, bots, rng)  # BotError if any action is illegal
        assert st.winner in range(3)


def test_the_rollouts_map_the_env_to_the_networks_features() -> None:
    """examples/train.py rolls out on VectorEnv: the env's observation mapped to the network's
    ten-seat input is the learned bot's features of the same view, and its actions map both ways."""
    train = load_train()
    from unotable.bots.learned import choices, features  # noqa: PLC0415
    from unotable.env import VectorEnv  # noqa: PLC0415

    for edition, players in (("classic", 2), ("harry-potter", 4), ("cars2", 3)):
        rules = Rules(edition=find_edition(edition), players=players)
        v = VectorEnv(4, rules, backend="python")
        mapper = train.Mapper(rules)
        b = v.reset(1)
        rng = random.Random(2)
        for _ in range(60):
            x, m = mapper.inputs(b)
            for i, d in enumerate(v.backend.drivers):  # type: ignore[attr-defined]
                view = d.view_of(d.actor)
                assert (x[i] == features(view, d.window)).all()
                net_ids, _ = choices(view, d.window)
                assert sorted(net_ids) == sorted(int(a) for a in m[i].nonzero()[0])
            acts = [rng.choice(list(b.action_mask[i].nonzero()[0])) for i in range(4)]
            net = [mapper.to_net[b.agent[i], a] for i, a in enumerate(acts)]
            assert [mapper.to_env[b.agent[i], a] for i, a in enumerate(net)] == acts
            b = v.step(acts)
