"""PPO with PufferLib's trainer: the policy's mask and action layout, a short smoke training
that writes its curve and checkpoint and resumes from it, and the config's checks. Skipped
where torch or pufferlib-core is missing (``pip install "hyle-entropy[puffer]"``)."""

import csv

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pufferlib.pufferl")

from hyle_entropy import puffer_patches, train_ppo  # noqa: E402
from hyle_entropy.ppo_policy import ACTIONS, EntropyPolicy, load_policy, observation_size, slide_cells  # noqa: E402
from hyle_entropy.vector import EntropyVecEnv  # noqa: E402


@pytest.mark.parametrize("observation", ["planes", "gains", "lines", "evals"])
def test_the_policy_gives_legal_actions_only_and_starts_uniform(observation):
    gains, lines, evals = observation != "planes", observation in ("lines", "evals"), observation == "evals"
    env = EntropyVecEnv(num_envs=16, role="random", opponent="random", seed=3, mask_in_observation=True, observation=observation)
    obs = env.reset()
    policy = EntropyPolicy(channels=8, blocks=1, hidden=8, gains=int(gains), lines=int(lines), evals=int(evals))
    with torch.no_grad():
        for _ in range(60):
            assert obs.shape == (16, observation_size(gains, lines, evals))
            logits, value = policy(torch.from_numpy(obs))
            assert logits.shape == (16, ACTIONS) and value.shape == (16, 1)
            legal = logits > -1e8
            assert np.array_equal(legal.numpy(), env.masks)
            # Untrained, every legal action has the same logit: the random bot.
            spread = torch.where(legal, logits, torch.zeros_like(logits)).abs().amax(dim=1)
            assert float(spread.max()) == 0.0
            probs = torch.softmax(logits, dim=1)
            actions = torch.multinomial(probs, 1).squeeze(1).numpy()
            obs, _, _, _ = env.step(actions)
    assert env.stats()["illegal"] == 0


def test_eval_start_makes_the_untrained_policy_the_one_move_lookahead():
    # Untrained with `eval_start` s, a legal action's logit is s per point of what it does to
    # the engine's evaluation (the observation holds tens of points), negated for Chaos: its
    # most likely action is the one `search:depth=1` values best.
    from hyle_entropy.ppo_policy import EVAL_SCALE, EVALS_SIZE, GAINS_SIZE, LINES_SIZE, PLANES_SIZE

    env = EntropyVecEnv(num_envs=8, role="random", opponent="random", seed=4, mask_in_observation=True, observation="evals")
    obs = env.reset()
    policy = EntropyPolicy(channels=4, blocks=1, hidden=4, evals=1, eval_start=3)
    start = PLANES_SIZE + GAINS_SIZE + LINES_SIZE
    with torch.no_grad():
        for _ in range(30):
            x = torch.from_numpy(obs)
            logits, _ = policy(x)
            changes = x[:, start : start + EVALS_SIZE]
            order = x[:, PLANES_SIZE - 2 : PLANES_SIZE - 1]  # 1 when Order is to move
            expected = EVAL_SCALE * 3.0 * (2 * order - 1) * changes
            legal = logits > -1e8
            assert torch.allclose(logits[legal], expected[legal])
            best = torch.where(legal, (2 * order - 1) * changes, torch.full_like(changes, -1e9)).argmax(dim=1)
            assert torch.equal(logits.argmax(dim=1), best)
            obs, _, _, _ = env.step(logits.argmax(dim=1).numpy())


def test_line_terms_are_the_table_differences_of_the_afterstates():
    # The slow way: every legal move played (the engine's afterstates), its board's lines looked
    # up, and the mover's table summed over them, less the same over the board now.
    from hyle_entropy import ntuple
    from hyle_entropy._native import afterstates
    from hyle_entropy.ppo_policy import CLASSES, GAINS_SIZE, LINE_SCALE, PATTERNS, PLANES_SIZE, STAGES

    ids, _ = ntuple.line_patterns(7)
    env = EntropyVecEnv(num_envs=6, role="random", opponent="random", seed=5, mask_in_observation=True, observation="lines")
    obs = env.reset()
    policy = EntropyPolicy(channels=4, blocks=1, hidden=4, lines=1)
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        policy.line_policy.copy_(torch.randn(policy.line_policy.shape, generator=generator))
    table = LINE_SCALE * policy.line_policy.detach().numpy().reshape(2, STAGES, CLASSES, PATTERNS)
    classes = [min(i % 7, 6 - i % 7) for i in range(14)]
    checked = 0
    for _ in range(40):
        x = torch.from_numpy(obs)
        tail = x[:, PLANES_SIZE - 2 : PLANES_SIZE]
        with torch.no_grad():
            moves, _ = policy.line_terms(x[:, PLANES_SIZE + GAINS_SIZE :], tail)
        for i in range(6):
            position = env.get_state(i)
            if not env.masks[i].any():
                continue
            order, progress = int(round(float(tail[i, 0]))), float(tail[i, 1])
            t = table[order, min(int(progress * STAGES), STAGES - 1)]

            def total(board: str) -> float:
                return sum(t[classes[k], ids[key]] for k, key in enumerate(ntuple.line_keys(board)))

            now = total(position.split(" ")[0])
            slow = sorted(total(after.split(" ")[0]) - now for move, after in afterstates(position) if move != "pass")
            legal = np.flatnonzero(env.masks[i][: ACTIONS - 1])
            fast = sorted(moves[i, legal].tolist())
            assert np.allclose(fast, slow, atol=1e-4), position
            checked += 1
        probs = torch.softmax(policy(x)[0], dim=1)
        obs, _, _, _ = env.step(torch.multinomial(probs, 1, generator=generator).squeeze(1).numpy())
    assert checked > 100


def test_slide_cells_follow_the_action_layout():
    # Action 49 + 0 is cell 0's first target (its right neighbour); the last slide is cell 48's
    # last target (the cell above it).
    origin, destination = slide_cells()
    assert len(origin) == ACTIONS - 49 - 1
    assert (int(origin[0]), int(destination[0])) == (0, 1)
    assert (int(origin[-1]), int(destination[-1])) == (48, 41)


# A tiny policy on 64 games, uncompiled: a smoke training in seconds.
SMALL = [
    "env.num_envs=64",
    "env.subenvs=2",
    "policy.channels=8",
    "policy.blocks=1",
    "policy.hidden=8",
    "train.compile=False",
    "train.bptt_horizon=16",
    "train.minibatch_size=512",
    "train.max_minibatch_size=512",
    "eval.interval=1000",
]


def small_run(tmp_path, settings):
    """train_ppo's arguments for a smoke training into ``tmp_path`` with these ``--set``s."""
    args = ["--out", str(tmp_path), "--minutes", "5", "--threads", "1"]
    for item in SMALL + settings:
        args += ["--set", item]
    return args


def test_a_short_training_writes_its_files_and_resumes(tmp_path, capsys):
    # From the random bot (the resume below reads a checkpoint from before `eval_start`).
    curriculum = ["curriculum.0.0=random greedy", "curriculum.0.03=greedy greedy", "curriculum.0.1=greedy greedy"]
    start = ["policy.eval_start=0", "warmup.critic_steps=0"]
    args = small_run(tmp_path, ["train.total_timesteps=8192", "eval.games=8"] + start + curriculum)
    assert train_ppo.main(args) == 0
    assert "after the first epoch, collection" in capsys.readouterr().out
    rows = list(csv.DictReader(open(tmp_path / "curve.csv")))
    assert [int(r["steps"]) for r in rows][0] == 0
    first_end = int(rows[-1]["steps"])
    assert first_end >= 8192
    for name in ("checkpoint.pt", "policy.pt", "policy.bin", "ppo.onnx", "curve.png"):
        assert (tmp_path / name).exists(), name
    # The Rust bot's weights say what made them and how far the run had come.
    header = (tmp_path / "policy.bin").read_bytes().split(b"\ndata\n")[0].decode()
    assert "# made by: python -m hyle_entropy.train_ppo --out" in header
    assert f"# {first_end} steps, " in header
    policy = load_policy(str(tmp_path / "policy.pt"))
    assert policy.config() == {"channels": 8, "blocks": 1, "hidden": 8, "gains": 1, "lines": 1, "evals": 1, "eval_start": 0, "read": 0}
    # The same command with a larger budget resumes from the checkpoint, also one written
    # before `eval_start` existed.
    saved = torch.load(tmp_path / "checkpoint.pt", weights_only=False)
    del saved["config"]["eval_start"]
    torch.save(saved, tmp_path / "checkpoint.pt")
    longer = [a.replace("train.total_timesteps=8192", "train.total_timesteps=16384") for a in args]
    assert train_ppo.main(longer) == 0
    rows = list(csv.DictReader(open(tmp_path / "curve.csv")))
    assert int(rows[-1]["steps"]) >= 16384 > first_end
    assert [int(r["steps"]) for r in rows] == sorted(int(r["steps"]) for r in rows)


def test_the_time_split_leaves_out_the_first_epoch():
    before = {"eval": 60.0, "env": 1.0, "eval_forward": 59.0, "train": 40.0, "train_forward": 39.0, "learn": 1.0}
    totals = {"eval": 110.0, "env": 21.0, "eval_forward": 89.0, "train": 90.0, "train_forward": 69.0, "learn": 21.0}
    assert train_ppo.time_split(totals, before) == (
        "collection 50% (environment 20%, policy 30%), learning 50% (forward 30%, backward and step 20%)"
    )
    assert train_ppo.time_split(before, before) == ""

    class Timers:
        profile = {"eval": {"elapsed": 2.0, "start": 0.0}}.items()

    assert train_ppo.timer_totals(Timers()) == {"eval": 2.0}
    assert train_ppo.timer_totals(object()) == {}


def test_the_critics_warm_up_holds_the_policy(tmp_path):
    # A policy that starts as the one-move lookahead keeps its logits' parameters through the
    # warm-up while the value learns.
    greedy = ["curriculum.0.0=greedy greedy", "curriculum.0.03=greedy greedy", "curriculum.0.1=greedy greedy"]
    warm_up = ["policy.eval_start=2", "warmup.critic_steps=100000", "train.total_timesteps=4096", "eval.games=4"]
    args = small_run(tmp_path, warm_up + greedy)
    assert train_ppo.main(args) == 0
    trained = load_policy(str(tmp_path / "policy.pt"))
    start = EntropyPolicy(**trained.config())
    held = train_ppo.policy_parameters(start)
    initial = dict(start.named_parameters())
    for name, p in trained.named_parameters():
        same = torch.equal(p, initial[name])
        assert same == (name in held), name
    assert torch.equal(trained.eval_weights, torch.tensor([-2.0, 2.0]))


def test_init_starts_from_a_saved_policy_with_its_own_config(tmp_path):
    # A distilled policy (here one with other weights and another width than the config's)
    # is where the run starts; a missing file is refused.
    start = EntropyPolicy(channels=4, blocks=1, hidden=4, evals=1, eval_start=2)
    with torch.no_grad():
        start.eval_weights.copy_(torch.tensor([1.5, 2.5]))
    torch.save({"config": start.config(), "weights": start.state_dict()}, tmp_path / "start.pt")
    greedy = ["curriculum.0.0=greedy greedy", "curriculum.0.03=greedy greedy", "curriculum.0.1=greedy greedy"]
    hold = ["warmup.critic_steps=100000", "train.total_timesteps=4096", "eval.games=4"]
    out = tmp_path / "run"
    args = small_run(out, hold + greedy) + ["--init", str(tmp_path / "start.pt")]
    assert train_ppo.main(args) == 0
    trained = load_policy(str(out / "policy.pt"))
    assert trained.config() == start.config()
    # Held through the warm-up: still the saved policy's weights on the evaluation.
    assert torch.equal(trained.eval_weights, torch.tensor([1.5, 2.5]))
    assert train_ppo.main(small_run(tmp_path / "other", hold + greedy) + ["--init", str(tmp_path / "none.pt")]) == 2


def test_the_default_starts_from_the_lookahead_and_plan_ini_from_the_random_bot():
    default = train_ppo.load_config(train_ppo.CONFIG, [])
    assert default["policy"]["eval_start"] == 2 and default["warmup"]["critic_steps"] == 1_000_000
    stages = train_ppo.curriculum(default)
    assert [start for start, _ in stages] == [0.0]
    assert sorted(set(stages[0][1])) == ["greedy", "search:depth=1,watch=0,weak=0,tt=1"]
    # plan.ini, by its bare name: entropy.ini's settings but the plan's own.
    plan = train_ppo.load_config("plan.ini", ["env.observation=gains"])
    assert plan["policy"]["eval_start"] == 0 and plan["warmup"]["critic_steps"] == 0
    assert [(start, sorted(set(names))) for start, names in train_ppo.curriculum(plan)] == [
        (0.0, ["random"]),
        (0.03, ["greedy", "random"]),
        (0.1, ["greedy", "random"]),
    ]
    assert plan["env"]["observation"] == "gains"
    assert plan["train"] == default["train"]
    # finetune.ini: the distilled policy's run, a gentler step against past selves too.
    finetune = train_ppo.load_config("finetune.ini", [])
    assert finetune["train"]["learning_rate"] < default["train"]["learning_rate"]
    assert "self" in train_ppo.curriculum(finetune)[0][1]
    assert finetune["env"] == default["env"] and finetune["policy"] == default["policy"]


def test_a_config_that_inherits_a_missing_file_is_refused(tmp_path):
    config = tmp_path / "mine.ini"
    config.write_text("[base]\ninherit = nowhere.ini\n")
    with pytest.raises(SystemExit, match="cannot read .*nowhere.ini, which the config .*mine.ini inherits"):
        train_ppo.load_config(config, [])


def test_bad_configs_are_refused_with_the_reason(tmp_path):
    with pytest.raises(SystemExit, match="SECTION.KEY=VALUE"):
        train_ppo.main(["--out", str(tmp_path), "--set", "learning_rate=1"])
    with pytest.raises(SystemExit, match="names 1 opponents for 8"):
        train_ppo.main(["--out", str(tmp_path), "--set", "curriculum.0.5=greedy"])
    with pytest.raises(SystemExit, match="warmup.critic_steps 'soon': use a whole number"):
        train_ppo.main(["--out", str(tmp_path), "--set", "warmup.critic_steps=soon"])
    with pytest.raises(SystemExit, match="policy.eval_start 1.5: use a whole number"):
        train_ppo.main(["--out", str(tmp_path), "--set", "policy.eval_start=1.5"])


def test_the_pytorch_advantage_matches_pufferlibs_kernel():
    import pufferlib.pufferl

    if not pufferlib.pufferl._C_AVAILABLE:
        pytest.skip("pufferlib._C did not load: no kernel to compare with")
    generator = torch.Generator().manual_seed(3)
    shape = (37, 16)
    values = torch.randn(shape, generator=generator)
    rewards = torch.randn(shape, generator=generator)
    terminals = (torch.rand(shape, generator=generator) < 0.1).float()
    # Importance ratios either side of the clips, as after an update.
    ratio = 0.5 + torch.rand(shape, generator=generator)
    for gamma, lam, rho_clip, c_clip in ((1.0, 0.95, 1.0, 1.0), (0.99, 0.9, 1.2, 0.8)):
        kernel = torch.zeros(shape)
        torch.ops.pufferlib.compute_puff_advantage(values, rewards, terminals, ratio, kernel, gamma, lam, rho_clip, c_clip)
        twin = puffer_patches.puff_advantage(values, rewards, terminals, ratio, torch.zeros(shape), gamma, lam, rho_clip, c_clip)
        assert torch.allclose(twin, kernel, atol=1e-5), (twin - kernel).abs().max()
        assert kernel.abs().sum() > 0


def test_training_falls_back_to_the_pytorch_advantage_without_the_kernel(monkeypatch, capsys):
    import pufferlib.pufferl

    monkeypatch.setattr(pufferlib.pufferl, "_C_AVAILABLE", False)
    monkeypatch.setattr(pufferlib.pufferl, "compute_puff_advantage", pufferlib.pufferl.compute_puff_advantage)
    puffer_patches.ensure_advantage_kernel()
    assert pufferlib.pufferl.compute_puff_advantage is puffer_patches.puff_advantage
    assert "did not load" in capsys.readouterr().out


def test_the_inverse_cdf_sampler_draws_pufferlibs_distribution():
    import pufferlib.pytorch

    generator = torch.Generator().manual_seed(5)
    logits = 2 * torch.randn(6, ACTIONS, generator=generator)
    # Masked as the policy masks them: most actions illegal, the last one (the pass) too.
    legal = torch.rand(6, ACTIONS, generator=generator) < 0.3
    legal[:, -1] = False
    legal[0] = False
    legal[0, 17] = True  # one legal action: always it
    logits = torch.where(legal, logits, torch.full_like(logits, -1e9))
    draws = 40_000
    actions, logprob, entropy = puffer_patches.sample_actions(logits.repeat(draws, 1), generator)
    actions = actions.long().reshape(draws, 6)
    assert bool(legal.gather(1, actions.T).all()), "a masked action was drawn"
    assert bool((actions[:, 0] == 17).all())
    # Frequencies within 5 standard errors of the softmax, as torch.multinomial draws them.
    probs = torch.softmax(logits, dim=1)
    for row in range(6):
        counts = torch.bincount(actions[:, row], minlength=ACTIONS).float() / draws
        error = (probs[row] * (1 - probs[row]) / draws).sqrt()
        assert bool(((counts - probs[row]).abs() <= 5 * error + 1e-6).all()), row
    # Log probability and entropy as PufferLib's sampler gives them for the same actions.
    first = actions[0]
    _, reference_logprob, reference_entropy = pufferlib.pytorch.sample_logits(logits, action=first)
    assert torch.allclose(logprob[:6], reference_logprob, atol=1e-5)
    assert torch.allclose(entropy[:6], reference_entropy, atol=1e-5)


def test_the_training_pass_scores_actions_as_pufferlib_does():
    import pufferlib.pytorch

    generator = torch.Generator().manual_seed(9)
    logits = 3 * torch.randn(64, ACTIONS, generator=generator)
    legal = torch.rand(64, ACTIONS, generator=generator) < 0.3
    legal[:, 0] = True
    logits = torch.where(legal, logits, torch.full_like(logits, -1e9))
    taken = torch.multinomial(torch.softmax(logits, dim=1), 1, generator=generator).squeeze(1)
    results = []
    for score in (lambda l: pufferlib.pytorch.sample_logits(l, action=taken.int()), lambda l: puffer_patches.score_actions(l, taken.int())):
        leaf = logits.clone().requires_grad_()
        action, logprob, entropy = score(leaf)
        (logprob.sum() + 0.1 * entropy.sum()).backward()
        results.append((action.long(), logprob.detach(), entropy.detach(), leaf.grad))
    (a, lp, ent, grad), (a2, lp2, ent2, grad2) = results
    assert torch.equal(a, a2) and torch.equal(a2, taken)
    assert torch.allclose(lp, lp2, atol=1e-5)
    assert torch.allclose(ent, ent2, atol=1e-5)
    assert torch.allclose(grad, grad2, atol=1e-5)


def test_the_sampler_is_installed_for_collection_and_training():
    import pufferlib.pytorch

    original = pufferlib.pytorch.sample_logits
    try:
        puffer_patches.install_sampler()
        puffer_patches.install_sampler()  # twice: still one wrapper over PufferLib's own
        patched = pufferlib.pytorch.sample_logits
        assert patched.original is getattr(original, "original", original)
        logits = torch.randn(4, ACTIONS)
        given = torch.tensor([1, 2, 3, 4])
        action, logprob, _ = patched(logits, action=given)
        assert torch.equal(action, given)
        assert torch.allclose(logprob, torch.log_softmax(logits, dim=1).gather(1, given[:, None]).squeeze(1), atol=1e-5)
        action, _, _ = patched(logits)
        assert action.shape == (4,)
        # Anything but a tensor of discrete logits is PufferLib's.
        normal = torch.distributions.Normal(torch.zeros(3, 1), torch.ones(3, 1))
        action, _, _ = patched(normal, action=torch.zeros(3, 1))
        assert action.shape == (3, 1)
    finally:
        pufferlib.pytorch.sample_logits = original


def test_freed_memory_is_kept_where_the_c_library_is_glibc():
    import platform

    kept = puffer_patches.keep_freed_memory()
    assert isinstance(kept, bool)
    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert kept
        # A large tensor freed and allocated again no longer faults its pages back in.
        import resource

        torch.empty(64 << 20, dtype=torch.uint8).fill_(1)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        torch.empty(64 << 20, dtype=torch.uint8).fill_(1)
        assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before < 1000
