//! Screens candidate evaluation features before they are made fast: self-play games give
//! positions with search values, and a ridge regression per bucket with and without each
//! candidate says how much it adds to the held-out R^2 (overall, and in mid-game turns 20-30).
//! The candidates here are slow, plainly written versions; a winner gets a fast twin in
//! `entropy_engine::eval`. Each is also scored on placement positions alone, where the
//! evaluation's features cannot see the colour drawn.
//!
//! `cargo run --release -p entropy-train --example feature_study -- [GAMES] [NODES]`

use entropy_core::{Colour, Move, Phase, Position};
use entropy_engine::eval::lowest_reply_placement;
use entropy_engine::eval::{for_each_touching_slide, threats, Bucket, Weights, BUCKETS};
use entropy_train::fit::{fit_rows, r_squared};
use entropy_train::{generate, Sample, TrainConfig};

const CANDIDATES: [&str; 8] = [
    "threat_second",
    "plan2",
    "blocked",
    "mobility2",
    "reach2",
    "drawn_safe",
    "drawn_min",
    "drawn_pot",
];

struct Row {
    game: usize,
    turn: usize,
    bucket: Bucket,
    values: Vec<f64>,
    target: f64,
    outcome: f64,
}

/// The best gain among slides whose destination is not the best slide's destination.
fn threat_second(position: &Position) -> f64 {
    let mut by_destination = [0i32; 64];
    for_each_touching_slide(position, |_, to, gain| {
        let i = to.index();
        by_destination[i] = by_destination[i].max(gain);
    });
    let mut gains: Vec<i32> = by_destination.to_vec();
    gains.sort_unstable_by(|a, b| b.cmp(a));
    gains[1].max(0) as f64
}

/// The position with Order to slide on the same board.
fn as_slide(position: &Position) -> Option<Position> {
    Position::from_board(*position.board(), Phase::Slide)
        .ok()
        .filter(|p| p.phase() == Phase::Slide)
}

/// What two slides in a row (Chaos doing nothing between) add beyond the best single slide.
fn plan2(position: &Position) -> f64 {
    let Some(slide) = as_slide(position) else {
        return 0.0;
    };
    let one = threats(&slide).0 as i32;
    let now = slide.score() as i32;
    let mut best = one;
    slide.for_each_slide(|from, to| {
        let mut after = slide;
        after.play_unchecked(Move::Slide { from, to });
        let gain = after.score() as i32 - now;
        // After a slide the phase is Draw; its threats are read off the board all the same.
        best = best.max(gain + threats(&after).0 as i32);
    });
    (best - one) as f64
}

/// Order's best next gain after Chaos's best placement, averaged over the colours in the bag
/// (for a placement position, its colour alone): what Chaos cannot block.
fn blocked(position: &Position) -> f64 {
    let board_position = match position.phase() {
        Phase::Place(_) | Phase::Draw => *position,
        Phase::Slide => match Position::from_board(*position.board(), Phase::Draw) {
            Ok(p) => p,
            Err(_) => return 0.0,
        },
        Phase::Over => return 0.0,
    };
    if board_position.board().vacant_bits().count_ones() <= 1 {
        return 0.0;
    }
    let now = board_position.score() as f64;
    let reply = |colour: Colour| {
        let mut p = board_position;
        if p.phase() == Phase::Draw {
            p.play_unchecked(Move::Draw(colour));
        }
        lowest_reply_placement(&p, colour, |_| 0).1 as f64 - now
    };
    match board_position.phase() {
        Phase::Place(colour) => reply(colour),
        _ => {
            let bag = board_position.bag();
            let total = bag.total() as f64;
            bag.colours()
                .filter(|&(_, n)| n > 0)
                .map(|(c, n)| n as f64 / total * reply(c))
                .sum()
        }
    }
}

/// Cells reachable from `at` by one rook slide through empty cells of `occupied` (bit r*8+c).
fn reach(occupied: u64, n: usize, at: usize) -> u64 {
    let (r, c) = ((at / 8) as i32, (at % 8) as i32);
    let mut out = 0;
    for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let (mut rr, mut cc) = (r + dr, c + dc);
        while rr >= 0 && cc >= 0 && rr < n as i32 && cc < n as i32 {
            let bit = 1u64 << (rr * 8 + cc);
            if occupied & bit != 0 {
                break;
            }
            out |= bit;
            rr += dr;
            cc += dc;
        }
    }
    out
}

/// The write-up's 2-turn mobility: per chip, the cells it reaches in at most two slides.
/// And the best score a chip could add by arriving, in two slides, on a cell it cannot reach in
/// one (the chip's own departure is not counted): threats one move further out.
fn mobility2(position: &Position) -> (f64, f64) {
    let board = position.board();
    let n = board.size().side();
    let occupied = board.occupied_bits();
    let mut total = 0;
    let mut best_far = 0i32;
    let mut chips = occupied;
    while chips != 0 {
        let at = chips.trailing_zeros() as usize;
        chips &= chips - 1;
        let without = occupied & !(1u64 << at);
        let one = reach(without, n, at);
        let mut two = one;
        let mut steps = one;
        while steps != 0 {
            let via = steps.trailing_zeros() as usize;
            steps &= steps - 1;
            two |= reach(without, n, via);
        }
        two &= !(1u64 << at);
        total += two.count_ones();
        let colour = board
            .get(entropy_core::Cell::new(at / 8, at % 8).expect("on the board"))
            .expect("a chip");
        let mut far = two & !one;
        while far != 0 {
            let to = far.trailing_zeros() as usize;
            far &= far - 1;
            let cell = entropy_core::Cell::new(to / 8, to % 8).expect("on the board");
            let gain = position.score_after_place(cell, colour) as i32 - position.score() as i32;
            best_far = best_far.max(gain);
        }
    }
    (total as f64, best_far as f64)
}

/// What Chaos's placement of a colour can concede now: the empty cells where it adds nothing,
/// the least it adds, and what it adds summed over the empty cells; for a placement position
/// its drawn colour, before a draw the bag's average, after Order's slide nothing.
fn drawn(position: &Position) -> (f64, f64, f64) {
    let now = position.score() as i64;
    let of_colour = |colour: Colour| {
        let (mut safe, mut least, mut sum) = (0i64, i64::MAX, 0i64);
        for cell in position.board().vacant_cells() {
            let gain = position.score_after_place(cell, colour) as i64 - now;
            safe += (gain == 0) as i64;
            least = least.min(gain);
            sum += gain;
        }
        (safe as f64, least.max(0) as f64, sum as f64)
    };
    match position.phase() {
        Phase::Place(colour) => of_colour(colour),
        Phase::Draw => {
            let bag = position.bag();
            let total = bag.total() as f64;
            bag.colours()
                .filter(|&(_, n)| n > 0)
                .map(|(c, n)| (n as f64 / total, of_colour(c)))
                .fold((0.0, 0.0, 0.0), |acc, (p, v)| {
                    (acc.0 + p * v.0, acc.1 + p * v.1, acc.2 + p * v.2)
                })
        }
        _ => (0.0, 0.0, 0.0),
    }
}

fn candidates(position: &Position) -> Vec<f64> {
    let (mob2, reach2) = mobility2(position);
    let (safe, least, sum) = drawn(position);
    vec![
        threat_second(position),
        plan2(position),
        blocked(position),
        mob2,
        reach2,
        safe,
        least,
        sum,
    ]
}

/// A training sample with the candidates' values appended to its features.
fn row(sample: &Sample) -> Row {
    let mut values = sample.features.to_vec();
    values.extend(candidates(&sample.position));
    Row {
        game: sample.game,
        turn: sample.position.placed(),
        bucket: sample.bucket,
        values,
        target: sample.target,
        outcome: sample.outcome,
    }
}

/// Held-out R^2 (pooled, and median within buckets) of a per-bucket fit on these columns.
fn score(
    rows: &[Row],
    columns: &[usize],
    filter: impl Fn(&Row) -> bool,
    truth: fn(&Row) -> f64,
) -> (f64, f64) {
    let (mut predictions, mut targets) = (Vec::new(), Vec::new());
    let mut within = Vec::new();
    for b in 0..BUCKETS {
        let in_bucket: Vec<&Row> = rows.iter().filter(|r| r.bucket == Bucket(b)).collect();
        let pick = |r: &Row| columns.iter().map(|&c| r.values[c]).collect::<Vec<f64>>();
        let train: Vec<(Vec<f64>, f64)> = in_bucket
            .iter()
            .filter(|r| r.game % 5 != 0)
            .map(|r| (pick(r), truth(r)))
            .collect();
        let train_refs: Vec<(&[f64], f64)> = train.iter().map(|(v, t)| (&v[..], *t)).collect();
        let Some(w) = fit_rows(&train_refs, columns.len(), 1e-3) else {
            continue;
        };
        let (mut p, mut t) = (Vec::new(), Vec::new());
        for r in in_bucket.iter().filter(|r| r.game % 5 == 0 && filter(r)) {
            let x = pick(r);
            p.push(w[0] + w[1..].iter().zip(&x).map(|(a, b)| a * b).sum::<f64>());
            t.push(truth(r));
        }
        if p.len() >= 50 {
            within.push(r_squared(&p, &t));
        }
        predictions.extend(p);
        targets.extend(t);
    }
    within.sort_by(f64::total_cmp);
    (
        r_squared(&predictions, &targets),
        within.get(within.len() / 2).copied().unwrap_or(f64::NAN),
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3000);
    let config = TrainConfig {
        games,
        nodes,
        jobs: 2,
        ..TrainConfig::default()
    };
    let samples = generate(&Weights::trained(), &config, 0, &|| {});
    let rows: Vec<Row> = samples.iter().map(row).collect();
    let base: Vec<usize> = (0..entropy_engine::eval::FEATURES).collect();
    let mid = |r: &Row| (20..=30).contains(&r.turn);
    let report = |name: &str, columns: &[usize]| {
        let (all, all_within) = score(&rows, columns, |_| true, |r| r.target);
        let (mid_all, mid_within) = score(&rows, columns, mid, |r| r.target);
        let (outcome, _) = score(&rows, columns, |_| true, |r| r.outcome);
        let (mid_outcome, _) = score(&rows, columns, mid, |r| r.outcome);
        println!(
            "{name:<22} search R^2 all {all:.4} (within {all_within:.4})  turns 20-30 {mid_all:.4} (within {mid_within:.4}); outcome R^2 all {outcome:.4}, turns 20-30 {mid_outcome:.4}"
        );
    };
    println!("{} rows from {games} games at {nodes} nodes", rows.len());
    let place_report = |name: &str, columns: &[usize]| {
        let place = |r: &Row| r.bucket.describe().0 == "place";
        let place_mid = |r: &Row| r.bucket.describe().0 == "place" && (20..=30).contains(&r.turn);
        let (all, within) = score(&rows, columns, place, |r| r.target);
        let (mid_all, mid_within) = score(&rows, columns, place_mid, |r| r.target);
        println!(
            "  place positions only: {name:<16} R^2 {all:.4} (within {within:.4}), turns 20-30 {mid_all:.4} (within {mid_within:.4})"
        );
    };
    report("base", &base);
    place_report("base", &base);
    for (i, name) in CANDIDATES.iter().enumerate() {
        let mut columns = base.clone();
        columns.push(entropy_engine::eval::FEATURES + i);
        report(&format!("base + {name}"), &columns);
        place_report(name, &columns);
    }
    let all: Vec<usize> = (0..entropy_engine::eval::FEATURES + CANDIDATES.len()).collect();
    report("base + all", &all);
}
