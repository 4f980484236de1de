//! Calibration: from the search's values to Order's expected final score.
//!
//! The linear evaluation is fitted to the values of its own searches (bootstrapped), not to
//! final scores, and keeps a bias per bucket of the game: early in a game its values sit about
//! 45 points below the final scores of the games that follow. A bias common to a bucket cancels
//! inside a search (every line of an iteration ends in the same bucket), so play does not need
//! it removed; people reading the values do. A searched value is the value of leaves at the
//! search's horizon carried up by max, min and averages, which pass a constant through, so the
//! correction depends on where the horizon is: on the moves left in the game there (which
//! give the leaves' turn and phase). Measured on self-play games, searches from Order's and
//! Chaos's decisions with the same horizon need the same offset (within 0.3 points wherever
//! both have hundreds of samples), so the table is one offset per horizon, fitted by
//! `entropy calibrate --fit` as the mean of final score less searched value over the decisions
//! of self-play games, smoothed over neighbouring turns of the same phase.
//!
//! The offset is added to every value of one search alike, so differences between moves (a
//! mistake's cost) and the moves chosen are unchanged. Exact values (a search that saw the end
//! of the game) are not corrected.
//!
//! Values mean something else where the searching bot reads its opponent as greedy (the
//! search then plays that opponent's greedy move below the root, and as Chaos values its
//! leaves with the hand weights), and the hand weights have biases of their own: those
//! searches have tables of their own, fitted on games of their kind
//! (`scripts/fit_calibration_play.sh`).

use std::fmt;
use std::sync::OnceLock;

use entropy_core::Role;

/// The table fitted for the shipped evaluation weights, embedded in the binary.
const SHIPPED: &str = include_str!("../../weights/calibration.txt");

/// The table fitted for the hand weights' searches in self-play (`search-hand`).
const HAND: &str = include_str!("../../weights/calibration-hand.txt");

/// The table fitted for the hand weights' searches as Chaos while the searching bot models its
/// Order as greedy (`search:handgreedy=1`), on games against `greedy`.
const HAND_VS_GREEDY: &str = include_str!("../../weights/calibration-hand-greedy.txt");

/// The table fitted for the shipped weights' searches as Order while the searching bot models
/// its Chaos as greedy, on games against `greedy`.
const TRAINED_VS_GREEDY_CHAOS: &str = include_str!("../../weights/calibration-greedy-chaos.txt");

/// The table fitted for the default bot's searches over the line-pattern tables
/// (`NTupleEval::tables`) in self-play.
const TABLES: &str = include_str!("../../weights/calibration-tables.txt");

/// The table fitted for the line-pattern tables' searches as Order while the searching bot
/// models its Chaos as greedy, on games against `greedy`.
const TABLES_VS_GREEDY_CHAOS: &str =
    include_str!("../../weights/calibration-tables-greedy-chaos.txt");

/// A table embedded in the binary, read once.
fn embedded(table: &'static OnceLock<Calibration>, text: &str) -> &'static Calibration {
    table.get_or_init(|| {
        text.parse()
            .expect("an embedded calibration is a valid table")
    })
}

/// Offsets to add to searched values, by how many moves (draws included) the game has left at
/// the search's horizon.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    side: usize,
    /// By moves left at the horizon; index 0 (the end: exact values) is 0.
    offsets: Vec<f64>,
}

/// A calibration file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalibrationError {
    line: usize,
    problem: String,
}

impl fmt::Display for CalibrationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "calibration line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for CalibrationError {}

/// One searched position of a game, for fitting: the moves left at the search's horizon, the
/// search's value and the game's final score.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CalibrationSample {
    /// Moves (draws included) left in the game at the deepest completed iteration's horizon.
    pub horizon: u32,
    /// The search's own (uncorrected) value.
    pub raw: f64,
    /// Order's final score in the game.
    pub final_score: f64,
    /// How much the sample counts (1 for most; more to let a smaller set of games count as
    /// much as a larger one).
    pub weight: f64,
}

/// The first line of a samples file: one searched decision a line, as `entropy calibrate
/// --samples` writes them and `--from-samples` reads them back.
pub const SAMPLES_HEADER: &str = "game,turn,role,depth,solved,horizon,score,raw,final";

/// One searched decision of a game, a line of a samples file ([`SAMPLES_HEADER`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DecisionSample {
    /// The game, from 1.
    pub game: usize,
    /// The chip being placed (Chaos) or just placed (Order), from 1.
    pub turn: usize,
    /// The player to move.
    pub role: Role,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Whether the search saw the end of the game.
    pub solved: bool,
    /// Moves left at the horizon (0 when solved).
    pub horizon: u32,
    /// Order's score in the position.
    pub score: f64,
    /// The search's own (uncorrected) value.
    pub raw: f64,
    /// Order's final score in the game.
    pub final_score: f64,
}

impl fmt::Display for DecisionSample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{},{},{},{},{},{:.4},{}",
            self.game,
            self.turn,
            self.role.name(),
            self.depth,
            u8::from(self.solved),
            self.horizon,
            self.score,
            self.raw,
            self.final_score
        )
    }
}

impl std::str::FromStr for DecisionSample {
    type Err = String;

    fn from_str(line: &str) -> Result<DecisionSample, String> {
        let fields: Vec<&str> = line.trim().split(',').collect();
        let [game, turn, role, depth, solved, horizon, score, raw, final_score] = fields[..] else {
            return Err(format!("expected 9 fields ({SAMPLES_HEADER})"));
        };
        fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("{name} {text:?}: not a number"))
        }
        let role = match role {
            "order" => Role::Order,
            "chaos" => Role::Chaos,
            _ => return Err(format!("role {role:?}: use order or chaos")),
        };
        Ok(DecisionSample {
            game: number("game", game)?,
            turn: number("turn", turn)?,
            role,
            depth: number("depth", depth)?,
            solved: solved == "1",
            horizon: number("horizon", horizon)?,
            score: number("score", score)?,
            raw: number("raw", raw)?,
            final_score: number("final", final_score)?,
        })
    }
}

impl Calibration {
    /// The table fitted for the shipped weights, in self-play: the value of a search that
    /// assumes nothing of its opponent means play on between two such searchers.
    pub fn shipped() -> &'static Calibration {
        static TABLE: OnceLock<Calibration> = OnceLock::new();
        embedded(&TABLE, SHIPPED)
    }

    /// The table for the hand weights' searches in self-play (the `search-hand` bot), fitted
    /// as the shipped one is for the trained weights: the values mean play on between two
    /// such searchers.
    pub fn hand() -> &'static Calibration {
        static TABLE: OnceLock<Calibration> = OnceLock::new();
        embedded(&TABLE, HAND)
    }

    /// The table for the hand weights' searches as Chaos against an Order the search models
    /// as greedy (the searching bot's `handgreedy`), fitted on games against `greedy`: there
    /// the values mean Order's final score against that greedy Order.
    pub fn hand_vs_greedy() -> &'static Calibration {
        static TABLE: OnceLock<Calibration> = OnceLock::new();
        embedded(&TABLE, HAND_VS_GREEDY)
    }

    /// The table for the shipped weights' searches as Order against a Chaos the search models
    /// as greedy, fitted on games against `greedy`: there the values mean Order's final score
    /// against that greedy Chaos, far above self-play's.
    pub fn trained_vs_greedy_chaos() -> &'static Calibration {
        static TABLE: OnceLock<Calibration> = OnceLock::new();
        embedded(&TABLE, TRAINED_VS_GREEDY_CHAOS)
    }

    /// The table for the default bot's searches, whose leaves the line-pattern tables value
    /// (`NTupleEval::tables`), fitted as the shipped one is: the values mean play on between
    /// two such searchers.
    pub fn tables() -> &'static Calibration {
        static TABLE: OnceLock<Calibration> = OnceLock::new();
        embedded(&TABLE, TABLES)
    }

    /// The table for the line-pattern tables' searches as Order against a Chaos the search
    /// models as greedy, fitted on games against `greedy`.
    pub fn tables_vs_greedy_chaos() -> &'static Calibration {
        static TABLE: OnceLock<Calibration> = OnceLock::new();
        embedded(&TABLE, TABLES_VS_GREEDY_CHAOS)
    }

    /// The table for the same evaluation's searches as Order while Chaos is read as greedy
    /// (greedy's Chaos concedes far more than the searcher the values assume), where this is
    /// a self-play table with such a partner: the shipped linear weights' or the tables'.
    pub fn vs_greedy_chaos(&self) -> Option<&'static Calibration> {
        if std::ptr::eq(self, Calibration::shipped()) {
            Some(Calibration::trained_vs_greedy_chaos())
        } else if std::ptr::eq(self, Calibration::tables()) {
            Some(Calibration::tables_vs_greedy_chaos())
        } else {
            None
        }
    }

    /// No correction at all.
    pub fn none(side: usize) -> Calibration {
        Calibration {
            side,
            offsets: vec![0.0],
        }
    }

    /// What to add to the value of a search of a `side` x `side` board whose horizon leaves
    /// `horizon` moves in the game (0: it saw the end, exact).
    pub fn offset(&self, side: usize, horizon: u32) -> f64 {
        if side != self.side || horizon == 0 {
            return 0.0;
        }
        let row = &self.offsets;
        // Past the table (a horizon further than any fitted): the furthest of the same phase.
        let mut index = horizon as usize;
        while index >= row.len() && index >= 3 {
            index -= 3;
        }
        row.get(index).copied().unwrap_or(0.0)
    }

    /// Fits offsets for a `side` board from samples: for each horizon, the weighted mean of
    /// final score less value over the samples whose horizon is of the same phase (the same remainder by 3)
    /// and within `bandwidth` turns (3 moves each), weighted by a triangle.
    pub fn fit(side: usize, samples: &[CalibrationSample], bandwidth: u32) -> Calibration {
        let longest = 3 * side * side;
        let mut cells = vec![(0.0, 0.0); longest + 1];
        for s in samples {
            let h = s.horizon as usize;
            if h == 0 || h > longest {
                continue;
            }
            cells[h].0 += s.weight * (s.final_score - s.raw);
            cells[h].1 += s.weight;
        }
        let reach = 3 * bandwidth as usize;
        let mut offsets = vec![0.0; longest + 1];
        for (h, slot) in offsets.iter_mut().enumerate().skip(1) {
            let (mut total, mut weight) = (0.0, 0.0);
            for other in (h.saturating_sub(reach)..=(h + reach).min(longest))
                .filter(|o| *o > 0 && o % 3 == h % 3)
            {
                let w = 1.0 - h.abs_diff(other) as f64 / (reach + 3) as f64;
                total += w * cells[other].0;
                weight += w * cells[other].1;
            }
            *slot = if weight > 0.0 {
                total / weight
            } else {
                f64::NAN
            };
        }
        fill_gaps(&mut offsets);
        let offsets = offsets
            .iter()
            .map(|x| (x * 100.0).round() / 100.0)
            .collect();
        Calibration { side, offsets }
    }

    /// The table as a file: comments, then `side N`, then `horizon offset` lines.
    pub fn to_text(&self, made_by: &str) -> String {
        let mut out = String::new();
        out.push_str(
            "# Offsets added to the searcher's values to make them Order's expected final\n",
        );
        out.push_str(
            "# score (crates/entropy-engine/src/eval/calibration.rs), by the moves left in\n",
        );
        out.push_str("# the game at the search's horizon.\n");
        for line in made_by.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!("side {}\n", self.side));
        out.push_str("# horizon offset\n");
        for (horizon, offset) in self.offsets.iter().enumerate().skip(1) {
            out.push_str(&format!("{horizon} {offset:.2}\n"));
        }
        out
    }
}

/// Horizons with no sample nearby take the nearest fitted offset of the same phase, or of any
/// phase where none of theirs has samples.
fn fill_gaps(row: &mut [f64]) {
    let fitted: Vec<usize> = (1..row.len()).filter(|&o| !row[o].is_nan()).collect();
    for h in 1..row.len() {
        if row[h].is_nan() {
            let nearest = |same_phase: bool| {
                fitted
                    .iter()
                    .copied()
                    .filter(|o| !same_phase || o % 3 == h % 3)
                    .min_by_key(|o| o.abs_diff(h))
            };
            row[h] = nearest(true)
                .or_else(|| nearest(false))
                .map_or(0.0, |o| row[o]);
        }
    }
}

impl std::str::FromStr for Calibration {
    type Err = CalibrationError;

    fn from_str(text: &str) -> Result<Calibration, CalibrationError> {
        let mut side = None;
        let mut offsets = vec![0.0];
        for (number, line) in text.lines().enumerate() {
            let bad = |problem: String| CalibrationError {
                line: number + 1,
                problem,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["side", n] => {
                    side = Some(
                        n.parse()
                            .map_err(|_| bad(format!("side {n:?}: not a number")))?,
                    )
                }
                [horizon, offset] => {
                    let horizon: usize = horizon
                        .parse()
                        .map_err(|_| bad(format!("horizon {horizon:?}: not a number")))?;
                    let offset: f64 = offset
                        .parse()
                        .ok()
                        .filter(|x: &f64| x.is_finite())
                        .ok_or_else(|| bad(format!("offset {offset:?}: not a number")))?;
                    if horizon != offsets.len() {
                        return Err(bad(format!(
                            "horizon {horizon}: expected {} (horizons count up from 1)",
                            offsets.len()
                        )));
                    }
                    offsets.push(offset);
                }
                _ => return Err(bad(format!("{line:?}: expected `horizon offset`"))),
            }
        }
        let side = side.ok_or(CalibrationError {
            line: 0,
            problem: "no `side N` line".into(),
        })?;
        Ok(Calibration { side, offsets })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(horizon: u32, raw: f64, final_score: f64) -> CalibrationSample {
        CalibrationSample {
            horizon,
            raw,
            final_score,
            weight: 1.0,
        }
    }

    #[test]
    fn a_fitted_table_reads_back_the_same() {
        // A linear residual on phase 0, a constant one on phase 1, nothing on phase 2.
        let samples: Vec<_> = (1..40)
            .map(|t| sample(3 * t, 40.0, 40.0 + t as f64))
            .chain((0..30).map(|t| sample(3 * t + 1, 50.0, 49.0)))
            .collect();
        let table = Calibration::fit(7, &samples, 2);
        let text = table.to_text("made by a test");
        assert_eq!(text.parse::<Calibration>().unwrap(), table);
        // A constant residual is fitted exactly; horizons past the data take the nearest.
        assert_eq!(table.offset(7, 10), -1.0);
        assert_eq!(table.offset(7, 142), -1.0);
        // A linear one, in the middle of the data, too.
        assert!((table.offset(7, 60) - 20.0).abs() < 1e-9);
        // A phase with no data takes the nearest of any phase (the first of two as near).
        assert_eq!(table.offset(7, 59), table.offset(7, 58));
        // Exact values and other boards are not corrected.
        assert_eq!(table.offset(7, 0), 0.0);
        assert_eq!(table.offset(5, 30), 0.0);
    }

    #[test]
    fn the_shipped_table_reads_and_corrects_early_values_upwards() {
        let table = Calibration::shipped();
        assert!(table.offset(7, 140) > 20.0);
        assert_eq!(table.offset(7, 0), 0.0);
    }

    #[test]
    fn the_other_tables_read_and_differ_from_the_shipped_one() {
        for table in [
            Calibration::hand(),
            Calibration::hand_vs_greedy(),
            Calibration::trained_vs_greedy_chaos(),
            Calibration::tables(),
            Calibration::tables_vs_greedy_chaos(),
        ] {
            assert_eq!(table.offset(7, 0), 0.0);
            assert_ne!(table, Calibration::shipped());
        }
    }

    #[test]
    fn each_self_play_table_names_its_table_against_a_greedy_chaos() {
        let pairs = [
            (
                Calibration::shipped(),
                Calibration::trained_vs_greedy_chaos(),
            ),
            (Calibration::tables(), Calibration::tables_vs_greedy_chaos()),
        ];
        for (table, against_greedy) in pairs {
            assert!(std::ptr::eq(
                table.vs_greedy_chaos().unwrap(),
                against_greedy
            ));
        }
        // The hand weights carry their own tables; a table read from a file has none.
        assert!(Calibration::hand().vs_greedy_chaos().is_none());
        let copy: Calibration = Calibration::tables().clone();
        assert!(copy.vs_greedy_chaos().is_none());
    }

    #[test]
    fn decision_samples_read_back_as_written_and_bad_lines_name_the_field() {
        let sample = DecisionSample {
            game: 3,
            turn: 12,
            role: Role::Order,
            depth: 7,
            solved: false,
            horizon: 104,
            score: 20.0,
            raw: 41.25,
            final_score: 80.0,
        };
        let line = sample.to_string();
        assert_eq!(line, "3,12,order,7,0,104,20,41.2500,80");
        assert_eq!(line.parse::<DecisionSample>(), Ok(sample));
        let error = "3,12,order,x,0,104,20,41.25,80"
            .parse::<DecisionSample>()
            .unwrap_err();
        assert!(error.contains("depth \"x\""), "{error}");
        assert!("1,2".parse::<DecisionSample>().is_err());
    }

    #[test]
    fn bad_files_name_the_line() {
        let error = "side 7\n2 1.0\n".parse::<Calibration>().unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.to_string().contains("expected 1"), "{error}");
        let error = "side 7\n1 x\n".parse::<Calibration>().unwrap_err();
        assert!(error.to_string().contains("not a number"), "{error}");
        assert!("1 1.0\n".parse::<Calibration>().is_err());
    }
}
