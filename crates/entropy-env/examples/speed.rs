//! Steps per second of the environment, timing only `step` (actions are drawn from the masks
//! outside the timed part):
//! `cargo run -p entropy-env --release --example speed -- ENVS OPPONENT planes|compact|gains|lines|evals [own|appended] [THREADS]`
//! (the mask in its own array, the default, or appended to the observation; the games stepped
//! on THREADS threads, 1 by default, 0 for one per core).
use std::time::{Duration, Instant};

use entropy_env::{Buffers, EnvConfig, ObservationKind, Observations, VecEnv};
use rand::{Rng, SeedableRng};

/// Prints what was wrong with the command line and exits.
fn usage(problem: &str) -> ! {
    eprintln!("speed: {problem}\nusage: speed [ENVS] [OPPONENT] [planes|compact|gains|lines|evals] [own|appended] [THREADS]");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let envs: usize = match args.get(1) {
        None => 1024,
        Some(a) => match a.parse() {
            Ok(n) if n > 0 => n,
            _ => usage(&format!("ENVS must be a positive number, not {a:?}")),
        },
    };
    let opponent = args.get(2).cloned().unwrap_or_else(|| "random".into());
    let name = args.get(3).map_or("planes", String::as_str);
    let kind = match ObservationKind::NAMED.iter().find(|(n, _)| *n == name) {
        Some(&(_, kind)) => kind,
        None => usage(&format!("unknown observation {name:?}")),
    };
    let appended = match args.get(4).map(String::as_str) {
        None | Some("own") => false,
        Some("appended") => true,
        Some(other) => usage(&format!("unknown mask placement {other:?}")),
    };
    let threads: usize = match args.get(5) {
        None => 1,
        Some(a) => a
            .parse()
            .unwrap_or_else(|_| usage(&format!("THREADS must be a number, not {a:?}"))),
    };
    let config = EnvConfig {
        threads,
        num_envs: envs,
        opponent,
        observation: kind,
        mask_in_observation: appended,
        ..EnvConfig::default()
    };
    let mut env = VecEnv::new(config).unwrap_or_else(|e| usage(&e.to_string()));
    let n = env.num_agents();
    let (obs_size, actions) = (env.observation_size(), env.action_count());
    let mut f = vec![0f32; n * obs_size];
    let mut b = vec![0u8; n * obs_size];
    let mut masks = vec![false; n * actions];
    let mut rewards = vec![0f32; n];
    let mut terminals = vec![false; n];
    let mut truncations = vec![false; n];
    macro_rules! buffers {
        () => {
            Buffers {
                observations: match kind {
                    ObservationKind::Planes
                    | ObservationKind::Gains
                    | ObservationKind::Lines
                    | ObservationKind::Evals
                    | ObservationKind::Read => Observations::F32(&mut f),
                    ObservationKind::Compact => Observations::U8(&mut b),
                },
                masks: &mut masks,
                rewards: &mut rewards,
                terminals: &mut terminals,
                truncations: &mut truncations,
            }
        };
    }
    env.reset(Some(1), &mut buffers!()).unwrap();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2);
    let mut timed = Duration::ZERO;
    let mut steps = 0u64;
    let mut chosen = vec![0i64; n];
    // A fixed number of steps instead of 3 seconds (for instruction counts): ENTROPY_STEPS.
    let fixed: Option<u64> = std::env::var("ENTROPY_STEPS")
        .ok()
        .and_then(|s| s.parse().ok());
    while fixed.map_or(timed < Duration::from_secs(3), |f| steps < f) {
        for (i, action) in chosen.iter_mut().enumerate() {
            let legal = env.legal_actions(i).unwrap();
            *action = legal[rng.random_range(0..legal.len())] as i64;
        }
        let start = Instant::now();
        env.step(&chosen, &mut buffers!()).unwrap();
        timed += start.elapsed();
        steps += n as u64;
    }
    println!(
        "{envs} envs, {:?} obs, mask {}, opponent {}: {:.0} steps/s",
        kind,
        if appended { "appended" } else { "own array" },
        env.config().opponent,
        steps as f64 / timed.as_secs_f64()
    );
}
