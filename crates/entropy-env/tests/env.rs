//! The environment against the rules: masks, resets, rewards, determinism.

use entropy_core::{Phase, Size};
use entropy_env::{
    observation_size, order_reward, Buffers, EnvConfig, Mode, ObservationKind, Observations,
    Potential, RoleChoice, VecEnv, WAIT,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

struct Owned {
    observations: Vec<f32>,
    bytes: Vec<u8>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    terminals: Vec<bool>,
    truncations: Vec<bool>,
}

impl Owned {
    fn for_env(env: &VecEnv) -> Owned {
        let agents = env.num_agents();
        Owned {
            observations: vec![0.0; agents * env.observation_size()],
            bytes: vec![0; agents * env.observation_size()],
            masks: vec![false; agents * env.action_count()],
            rewards: vec![0.0; agents],
            terminals: vec![false; agents],
            truncations: vec![false; agents],
        }
    }

    fn buffers(&mut self, kind: ObservationKind) -> Buffers<'_> {
        Buffers {
            observations: match kind {
                ObservationKind::Planes
                | ObservationKind::Gains
                | ObservationKind::Lines
                | ObservationKind::Evals
                | ObservationKind::Read => Observations::F32(&mut self.observations),
                ObservationKind::Compact => Observations::U8(&mut self.bytes),
            },
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminals: &mut self.terminals,
            truncations: &mut self.truncations,
        }
    }
}

/// A new environment after its first reset, with buffers for its observation kind.
fn started(config: EnvConfig) -> (VecEnv, Owned) {
    let kind = config.observation;
    let mut env = VecEnv::new(config).unwrap();
    let mut owned = Owned::for_env(&env);
    env.reset(None, &mut owned.buffers(kind)).unwrap();
    (env, owned)
}

/// Plays random legal actions (from the mask) for `steps` steps; returns every reward and flag.
fn run(config: EnvConfig, steps: usize, seed: u64) -> (Vec<f32>, Vec<bool>, VecEnv) {
    let kind = config.observation;
    let (mut env, mut owned) = started(config);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut rewards, mut terminals) = (Vec::new(), Vec::new());
    let actions_per_agent = env.action_count();
    for _ in 0..steps {
        let actions: Vec<i64> = (0..env.num_agents())
            .map(|agent| {
                let mask = &owned.masks[agent * actions_per_agent..(agent + 1) * actions_per_agent];
                let legal: Vec<usize> = (0..actions_per_agent).filter(|&a| mask[a]).collect();
                if legal.is_empty() {
                    0
                } else {
                    legal[rng.random_range(0..legal.len())] as i64
                }
            })
            .collect();
        env.step(&actions, &mut owned.buffers(kind)).unwrap();
        rewards.extend_from_slice(&owned.rewards);
        terminals.extend_from_slice(&owned.terminals);
    }
    (rewards, terminals, env)
}

#[test]
fn masks_equal_the_legal_moves() {
    for size in [Size::SEVEN, Size::FIVE] {
        let config = EnvConfig {
            size,
            num_envs: 3,
            seed: 4,
            ..EnvConfig::default()
        };
        let (mut env, mut owned) = started(config);
        let actions_per_agent = env.action_count();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..300 {
            let mut actions = Vec::new();
            for i in 0..3 {
                let mask = &owned.masks[i * actions_per_agent..(i + 1) * actions_per_agent];
                let from_mask: Vec<usize> = (0..actions_per_agent).filter(|&a| mask[a]).collect();
                assert_eq!(from_mask, {
                    let mut legal = env.legal_actions(i).unwrap();
                    legal.sort();
                    legal
                });
                assert!(!from_mask.is_empty());
                actions.push(from_mask[rng.random_range(0..from_mask.len())] as i64);
            }
            env.step(&actions, &mut owned.buffers(ObservationKind::Planes))
                .unwrap();
        }
    }
}

#[test]
fn finished_games_report_terminal_and_the_final_reward_then_reset() {
    let config = EnvConfig {
        num_envs: 2,
        role: RoleChoice::Order,
        seed: 9,
        ..EnvConfig::default()
    };
    let (rewards, terminals, env) = run(config, 200, 3);
    let finals: Vec<f32> = rewards
        .iter()
        .zip(&terminals)
        .filter(|(_, &t)| t)
        .map(|(r, _)| *r)
        .collect();
    assert!(finals.len() >= 6, "{} episodes", finals.len());
    // Every nonterminal reward is 0 without shaping; every final one is the rule's.
    for (r, t) in rewards.iter().zip(&terminals) {
        if !t {
            assert_eq!(*r, 0.0);
        }
    }
    let stats = env.stats();
    assert_eq!(stats.episodes as usize, finals.len());
    let mean_final: f32 = finals.iter().sum::<f32>() / finals.len() as f32;
    let from_scores = order_reward((stats.score / stats.episodes as f64) as u32);
    assert!(
        (mean_final - from_scores).abs() < 0.5,
        "{mean_final} vs {from_scores}"
    );
    assert_eq!(
        stats.episode_length / stats.episodes as f64,
        48.0,
        "Order decides 48 times"
    );
    // After the reset the game continues from a fresh board.
    assert!(env.position(0).unwrap().placed() < 49);
}

#[test]
fn illegal_actions_are_refused_with_the_penalty() {
    let config = EnvConfig {
        role: RoleChoice::Chaos,
        reward_illegal: -0.5,
        ..EnvConfig::default()
    };
    let (mut env, mut owned) = started(config);
    let before = env.get_state(0).unwrap();
    // A pass is not a Chaos move; -1 and huge numbers are no actions at all.
    for action in [637, -1, 100_000] {
        env.step(&[action], &mut owned.buffers(ObservationKind::Planes))
            .unwrap();
        assert_eq!(owned.rewards[0], -0.5);
        assert!(!owned.terminals[0]);
        assert_eq!(env.get_state(0).unwrap(), before);
    }
    assert_eq!(env.stats().illegal, 3);
}

#[test]
fn the_same_seed_gives_the_same_games() {
    for kind in [ObservationKind::Planes, ObservationKind::Compact] {
        let config = EnvConfig {
            num_envs: 4,
            seed: 11,
            observation: kind,
            opponent: "greedy".into(),
            ..EnvConfig::default()
        };
        let a = run(config.clone(), 150, 5);
        let b = run(config, 150, 5);
        assert_eq!(a.0, b.0);
        assert_eq!(a.1, b.1);
        assert_eq!(a.2.get_state(3).unwrap(), b.2.get_state(3).unwrap());
    }
}

#[test]
fn self_play_gives_both_agents_their_rewards() {
    let config = EnvConfig {
        num_envs: 2,
        mode: Mode::SelfPlay,
        seed: 2,
        ..EnvConfig::default()
    };
    let (rewards, terminals, env) = run(config, 3 * 100, 8);
    assert_eq!(env.num_agents(), 4);
    let mut episodes = 0;
    for (step_rewards, step_terminals) in rewards.chunks(4).zip(terminals.chunks(4)) {
        for game in 0..2 {
            let (chaos, order) = (2 * game, 2 * game + 1);
            assert_eq!(step_terminals[chaos], step_terminals[order]);
            if step_terminals[order] {
                episodes += 1;
                assert_eq!(step_rewards[chaos], -step_rewards[order]);
            }
        }
    }
    assert!(episodes >= 4);
}

#[test]
fn a_waiting_self_play_game_does_not_move() {
    let config = EnvConfig {
        num_envs: 2,
        mode: Mode::SelfPlay,
        seed: 4,
        ..EnvConfig::default()
    };
    let (mut env, mut owned) = started(config);
    let before = [env.get_state(0).unwrap(), env.get_state(1).unwrap()];
    // Game 0 waits; game 1's Chaos places on its first legal cell.
    let place = env.legal_actions(1).unwrap()[0] as i64;
    env.step(
        &[WAIT, WAIT, place, WAIT],
        &mut owned.buffers(ObservationKind::Planes),
    )
    .unwrap();
    assert_eq!(env.get_state(0).unwrap(), before[0]);
    assert_ne!(env.get_state(1).unwrap(), before[1]);
    assert_eq!(env.stats().illegal, 0);
    assert_eq!(owned.rewards, vec![0.0; 4]);
}

/// With shaping alone, each role's rewards over a self-play episode sum to its share of the
/// final score (over 25, negated for Chaos), whoever makes the last move.
#[test]
fn self_play_shaping_sums_to_the_final_score_for_both_roles() {
    let config = EnvConfig {
        num_envs: 1,
        mode: Mode::SelfPlay,
        seed: 5,
        reward_shaping: 1.0,
        reward_final: 0.0,
        ..EnvConfig::default()
    };
    let (rewards, terminals, env) = run(config, 300, 3);
    let (mut chaos, mut order) = (0.0f64, 0.0f64);
    let mut done = (0.0f64, 0.0f64);
    for (step_rewards, step_terminals) in rewards.chunks(2).zip(terminals.chunks(2)) {
        chaos += f64::from(step_rewards[0]);
        order += f64::from(step_rewards[1]);
        if step_terminals[1] {
            done = (chaos, order);
        }
    }
    let stats = env.stats();
    assert!(stats.episodes >= 2);
    assert!(
        (done.1 - stats.score / 25.0).abs() < 1e-3,
        "{done:?} {stats:?}"
    );
    assert!(
        (done.0 + stats.score / 25.0).abs() < 1e-3,
        "{done:?} {stats:?}"
    );
}

/// With the engine's evaluation as the potential, each role's shaping still sums over an
/// episode to its share of the final score, less the empty board's potential: in self-play and
/// against a bot, in either role.
#[test]
fn evaluation_shaping_sums_to_the_final_score_less_the_empty_boards_potential() {
    let empty = Potential::Evaluation.of(&entropy_core::Position::new(Size::SEVEN)) as f64;
    assert!(empty > 20.0, "the empty board is worth {empty}");
    for mode in [Mode::SelfPlay, Mode::Single] {
        let config = EnvConfig {
            num_envs: 2,
            mode,
            opponent: "greedy".to_owned(),
            seed: 6,
            reward_shaping: 1.0,
            reward_potential: Potential::Evaluation,
            reward_final: 0.0,
            ..EnvConfig::default()
        };
        let (rewards, terminals, env) = run(config, 400, 8);
        let stats = env.stats().clone();
        assert!(stats.episodes >= 2, "{stats:?}");
        let agents = env.num_agents();
        // Each agent's rewards up to its game's last finish.
        let mut finished = vec![0.0f64; agents];
        let mut running = vec![0.0f64; agents];
        for (step_rewards, step_terminals) in rewards.chunks(agents).zip(terminals.chunks(agents)) {
            for agent in 0..agents {
                running[agent] += f64::from(step_rewards[agent]);
                if step_terminals[agent] {
                    finished[agent] = running[agent];
                }
            }
        }
        let total: f64 = finished.iter().sum();
        let episodes = stats.episodes as f64;
        let expected = match mode {
            // Order's share less Chaos's: they cancel.
            Mode::SelfPlay => 0.0,
            Mode::Single => {
                let order = stats.order_episodes as f64;
                let chaos = episodes - order;
                (stats.order_score - order * empty - (stats.chaos_score - chaos * empty)) / 25.0
            }
        };
        assert!(
            (total - expected).abs() < 1e-2,
            "{mode:?}: {total} {expected}"
        );
        if mode == Mode::SelfPlay {
            let order: f64 = finished.iter().skip(1).step_by(2).sum();
            let want = (stats.score - episodes * empty) / 25.0;
            assert!((order - want).abs() < 1e-2, "{order} {want}");
        }
    }
}

#[test]
fn potentials_are_the_score_at_the_end_and_named() {
    let start = entropy_core::Position::new(Size::SEVEN);
    assert_eq!(Potential::Score.of(&start), 0.0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut position = start;
    while !position.is_over() {
        let evaluated = Potential::Evaluation.of(&position);
        assert!(evaluated.is_finite(), "{evaluated}");
        position.play_unchecked(entropy_engine::bots::random_move(&position, &mut rng));
    }
    let score = position.score() as f32;
    assert_eq!(Potential::Evaluation.of(&position), score);
    assert_eq!(Potential::Score.of(&position), score);
    assert_eq!("score".parse::<Potential>(), Ok(Potential::Score));
    assert_eq!("eval".parse::<Potential>(), Ok(Potential::Evaluation));
    let error = "scores".parse::<Potential>().unwrap_err();
    assert!(
        error.contains("\"scores\"") && error.contains("eval"),
        "{error}"
    );
}

#[test]
fn states_can_be_set_and_read() {
    let mut env = VecEnv::new(EnvConfig::default()).unwrap();
    let mut owned = Owned::for_env(&env);
    let text = "1....../......./......./......./......./......./....... slide";
    env.set_state(0, text, false, &mut owned.buffers(ObservationKind::Planes))
        .unwrap();
    assert_eq!(env.get_state(0).unwrap(), text);
    assert_eq!(env.legal_actions(0).unwrap().len(), 13);
    assert_eq!(env.position(0).unwrap().phase(), Phase::Slide);
    assert_eq!(owned.observations[0], 1.0, "red plane, cell Aa");
    assert!(env
        .set_state(
            0,
            "garbage",
            false,
            &mut owned.buffers(ObservationKind::Planes)
        )
        .is_err());
    assert!(env
        .set_state(
            0,
            &format!("{} draw", ".".repeat(49)),
            false,
            &mut owned.buffers(ObservationKind::Planes)
        )
        .is_err());
    let outcomes = env.chance_outcomes(0).unwrap();
    assert_eq!(outcomes.len(), 7);
    assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn a_buffer_of_the_wrong_element_type_is_an_error() {
    for (kind, wrong) in [
        (ObservationKind::Compact, ObservationKind::Lines),
        (ObservationKind::Lines, ObservationKind::Compact),
    ] {
        let config = EnvConfig {
            observation: kind,
            ..EnvConfig::default()
        };
        let mut env = VecEnv::new(config).unwrap();
        let mut owned = Owned::for_env(&env);
        let error = env.reset(None, &mut owned.buffers(wrong)).unwrap_err();
        let needs = if kind == ObservationKind::Compact {
            "u8"
        } else {
            "f32"
        };
        assert_eq!(
            error.to_string(),
            format!("the {kind:?} observation needs {needs} buffers")
        );
        assert!(env.reset(None, &mut owned.buffers(kind)).is_ok());
    }
}

#[test]
fn without_autoreset_a_finished_game_waits_for_reset() {
    let config = EnvConfig {
        role: RoleChoice::Chaos,
        autoreset: false,
        size: Size::FIVE,
        ..EnvConfig::default()
    };
    let (mut env, mut owned) = started(config);
    let mut steps = 0;
    while !owned.terminals[0] {
        let legal = env.legal_actions(0).unwrap();
        env.step(
            &[legal[0] as i64],
            &mut owned.buffers(ObservationKind::Planes),
        )
        .unwrap();
        steps += 1;
    }
    assert_eq!(steps, 25, "Chaos places every chip");
    assert!(env.position(0).unwrap().is_over());
    assert!(owned.masks.iter().all(|&m| !m));
    env.step(&[0], &mut owned.buffers(ObservationKind::Planes))
        .unwrap();
    assert!(owned.terminals[0] && owned.rewards[0] == 0.0);
    env.reset(None, &mut owned.buffers(ObservationKind::Planes))
        .unwrap();
    assert!(!env.position(0).unwrap().is_over());
}

/// Steps `config`'s games with random actions (some illegal, some waits in self-play) and
/// returns everything written: every step's observations, masks, rewards and flags, then the
/// statistics.
fn transcript(config: EnvConfig, steps: usize) -> (Vec<u8>, String) {
    let kind = config.observation;
    let (mut env, mut owned) = started(config);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let actions_per_agent = env.action_count();
    let mut written = Vec::new();
    for _ in 0..steps {
        let actions: Vec<i64> = (0..env.num_agents())
            .map(|agent| {
                let mask = &owned.masks[agent * actions_per_agent..(agent + 1) * actions_per_agent];
                let legal: Vec<usize> = (0..actions_per_agent).filter(|&a| mask[a]).collect();
                match rng.random_range(0..20) {
                    0 => 0,
                    1 => WAIT,
                    _ if legal.is_empty() => 0,
                    _ => legal[rng.random_range(0..legal.len())] as i64,
                }
            })
            .collect();
        env.step(&actions, &mut owned.buffers(kind)).unwrap();
        written.extend(owned.observations.iter().flat_map(|o| o.to_le_bytes()));
        written.extend(owned.masks.iter().map(|&m| m as u8));
        written.extend(owned.rewards.iter().flat_map(|r| r.to_le_bytes()));
        written.extend(owned.terminals.iter().map(|&t| t as u8));
    }
    (written, format!("{:?}", env.stats()))
}

#[test]
fn threads_change_no_result() {
    for mode in [Mode::Single, Mode::SelfPlay] {
        let config = |threads| EnvConfig {
            num_envs: 13,
            mode,
            opponent: "greedy".to_owned(),
            observation: ObservationKind::Evals,
            reward_shaping: 0.5,
            seed: 3,
            threads,
            ..EnvConfig::default()
        };
        let (serial, serial_stats) = transcript(config(1), 150);
        assert!(serial_stats.contains("illegal: ") && !serial_stats.contains("episodes: 0,"));
        for threads in [0, 2, 3] {
            let (parallel, parallel_stats) = transcript(config(threads), 150);
            assert_eq!(
                parallel_stats, serial_stats,
                "{mode:?} on {threads} threads"
            );
            assert!(
                parallel == serial,
                "{mode:?} on {threads} threads wrote otherwise"
            );
        }
    }
}

/// The read observation's flag: a Chaos agent against greedy reads it as greedy after a few of
/// its moves (as the bot `policy` would), against random never; `set_state` sets it.
#[test]
fn the_read_flag_follows_the_opponent() {
    let flag_at = observation_size(Size::SEVEN, ObservationKind::Evals);
    for (opponent, reads) in [("greedy", true), ("random", false)] {
        let config = EnvConfig {
            num_envs: 4,
            role: RoleChoice::Chaos,
            opponent: opponent.to_owned(),
            observation: ObservationKind::Read,
            autoreset: false,
            seed: 3,
            ..EnvConfig::default()
        };
        let width = observation_size(Size::SEVEN, ObservationKind::Read);
        let (mut env, mut owned) = started(config);
        assert_eq!(env.observation_size(), width);
        let actions_per_agent = env.action_count();
        let mut flagged = 0;
        for _ in 0..Size::SEVEN.cells() {
            let actions: Vec<i64> = (0..4)
                .map(|i| {
                    let mask = &owned.masks[i * actions_per_agent..(i + 1) * actions_per_agent];
                    mask.iter().position(|&m| m).map_or(0, |a| a as i64)
                })
                .collect();
            env.step(&actions, &mut owned.buffers(ObservationKind::Read))
                .unwrap();
            flagged += (0..4)
                .filter(|&i| owned.observations[i * width + flag_at] == 1.0)
                .count();
        }
        assert_eq!(
            flagged > 40,
            reads,
            "{opponent}: {flagged} decisions read greedy"
        );
    }
    let mut env = VecEnv::new(EnvConfig {
        observation: ObservationKind::Read,
        ..EnvConfig::default()
    })
    .unwrap();
    let mut owned = Owned::for_env(&env);
    let text = "1....../......./......./......./......./......./....... 2";
    for greedy in [true, false] {
        env.set_state(0, text, greedy, &mut owned.buffers(ObservationKind::Read))
            .unwrap();
        assert_eq!(owned.observations[flag_at], f32::from(u8::from(greedy)));
    }
}
