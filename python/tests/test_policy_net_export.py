"""The policy's weights for the Rust forward pass (``ppo_policy.export_weights``, read by
``crates/entropy-engine/src/learned/policy_net.rs``), and the golden file the Rust test compares
with: a small policy with every parameter random, so that every term of the network counts.

Run as a script to write the fixture the Rust test reads:

    python python/tests/test_policy_net_export.py crates/entropy-engine/tests/data

Skipped where torch is missing."""

import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from hyle_entropy.ppo_policy import EntropyPolicy, export_weights, read_flags  # noqa: E402
from hyle_entropy.vector import EntropyVecEnv  # noqa: E402


def fixture_policy() -> EntropyPolicy:
    """The read policy (every term of the network) with every parameter drawn at random
    (seeded)."""
    torch.manual_seed(11)
    policy = EntropyPolicy(channels=6, blocks=2, hidden=5, read=1, eval_start=2)
    with torch.no_grad():
        for name, parameter in policy.named_parameters():
            scale = 0.05 if name.startswith("line_") else 0.5
            parameter.normal_(0.0, scale)
    return policy.eval()


def golden_lines(policy: EntropyPolicy, games: int = 3, seed: int = 7) -> list:
    """``position<TAB>action<TAB>logit<TAB>mean legal logit<TAB>value`` (then ``<TAB>greedy``
    where the opponent read as greedy) in the positions of games of the policy (sampling its
    moves) against the random bot and greedy in each role, leaving out near ties (the two best
    logits closer than 1e-3)."""
    generator = torch.Generator().manual_seed(seed)
    lines = []
    for opponent, role in [(o, r) for o in ("random", "greedy") for r in ("order", "chaos")]:
        env = EntropyVecEnv(num_envs=games, role=role, opponent=opponent, seed=seed, autoreset=False, mask_in_observation=True, observation=policy.observation())
        obs = env.reset()
        while not env.terminals.all():
            with torch.no_grad():
                logits, value = policy.logits_and_value(torch.from_numpy(obs))
            top = logits.topk(2, dim=1)
            legal = torch.from_numpy(env.masks)
            mean = torch.where(legal, logits, torch.zeros_like(logits)).sum(dim=1) / legal.sum(dim=1).clamp(min=1)
            greedy = read_flags(policy, torch.from_numpy(obs))
            for i in range(games):
                if env.terminals[i] or float(top.values[i, 0] - top.values[i, 1]) < 1e-3:
                    continue
                flag = "\tgreedy" if greedy[i] else ""
                lines.append(f"{env.get_state(i)}\t{int(top.indices[i, 0])}\t{float(top.values[i, 0]):.6f}\t{float(mean[i]):.6f}\t{float(value[i, 0]):.6f}{flag}")
            probs = torch.softmax(logits, dim=1)
            env.step(torch.multinomial(probs, 1, generator=generator).squeeze(1).numpy())
    return lines


def write_fixture(folder: Path) -> None:
    policy = fixture_policy()
    export_weights(policy, str(folder / "policy-net.bin"), provenance="made by: python python/tests/test_policy_net_export.py (fixture_policy)")
    (folder / "policy-net-golden.txt").write_text("\n".join(golden_lines(policy)) + "\n")


def test_the_weights_file_lists_every_parameter_in_order(tmp_path):
    policy = fixture_policy()
    path = tmp_path / "net.bin"
    export_weights(policy, str(path), provenance="made by: a test")
    data = path.read_bytes()
    header, _, values = data.partition(b"\ndata\n")
    lines = header.decode().splitlines()
    assert lines[0] == "entropy policy network 1"
    assert lines[1] == "config channels 6 blocks 2 hidden 5 gains 1 lines 1 evals 1 eval_start 2 read 1"
    assert lines[2] == "# made by: a test"
    names = [line.split()[1] for line in lines if line.startswith("tensor ")]
    assert names == list(policy.state_dict())
    assert len(values) == 4 * sum(t.numel() for t in policy.state_dict().values())
    first = policy.state_dict()[names[0]].reshape(-1)
    assert torch.equal(torch.frombuffer(bytearray(values[: 4 * first.numel()]), dtype=torch.float32), first)


def test_the_committed_fixture_is_what_the_generator_writes(tmp_path):
    # The Rust test's golden file comes from this generator; a change to the policy's forward
    # pass shows here first (regenerate with the command in the module's doc).
    committed = Path(__file__).resolve().parents[2] / "crates/entropy-engine/tests/data"
    if not (committed / "policy-net-golden.txt").exists():
        pytest.skip("the fixture is not in this checkout")
    write_fixture(tmp_path)
    assert (tmp_path / "policy-net.bin").read_bytes() == (committed / "policy-net.bin").read_bytes()
    fresh = (tmp_path / "policy-net-golden.txt").read_text().splitlines()
    old = (committed / "policy-net-golden.txt").read_text().splitlines()
    assert [line.split("\t")[:2] for line in fresh] == [line.split("\t")[:2] for line in old]


if __name__ == "__main__":
    write_fixture(Path(sys.argv[1]))
