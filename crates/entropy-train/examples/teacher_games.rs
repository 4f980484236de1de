//! Writes teacher games of `entropy train-net --method distill` as JSON lines, one game each
//! as it ends (`{"game": N, "samples": TEXT}`, the format `python -m hyle_entropy.board_net
//! train --data FILE` reads), without Ray. Arguments: games, output file, nodes (2000),
//! best candidates (2), then flags `consistent`, `average` and `same_depth`. Games already in the file are
//! kept and not played again.
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use entropy_core::Size;
use entropy_engine::eval::LinearEval;
use entropy_engine::search::Searcher;
use entropy_train::distill::{teacher_game, transitions_to_text, DistillConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let out = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| "teacher.jsonl".into());
    let nodes: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let best: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(2);
    let flag = |name: &str| args.iter().skip(5).any(|a| a == name);
    let config = DistillConfig {
        seed: 2026,
        games,
        nodes,
        candidates: 2,
        best_candidates: best,
        average_draws: flag("average"),
        consistent: flag("consistent"),
        same_depth: flag("same_depth"),
        candidate_model: None,
        jobs: 2,
        size: Size::SEVEN,
    };
    let done: std::collections::HashSet<usize> = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()?["game"].as_u64())
        .map(|g| g as usize)
        .collect();
    let todo: Vec<usize> = (0..games).filter(|g| !done.contains(g)).collect();
    let file = Mutex::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&out)
            .expect("the output file opens"),
    );
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..config.jobs {
            scope.spawn(|| {
                let mut searcher = Searcher::new(LinearEval::trained(), 4);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&game) = todo.get(i) else { break };
                    let text = transitions_to_text(&teacher_game(&mut searcher, &config, game));
                    let line =
                        serde_json::json!({"game": game, "samples": text}).to_string() + "\n";
                    file.lock()
                        .unwrap()
                        .write_all(line.as_bytes())
                        .expect("the output file takes the line");
                    eprint!("\r{}/{} games", i + 1, todo.len());
                }
            });
        }
    });
    eprintln!();
}
