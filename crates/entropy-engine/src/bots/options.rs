//! The searching bots' options in one table that lists, documents and parses every one: what
//! `search:KEY=VALUE,...` accepts, what `entropy bots --options` prints and what an error names.
//! The numeric ones SPSA may tune are also in [`super::search::TUNABLES`].

use std::time::Duration;

use super::SearchOptions;
use crate::eval::{LinearEval, Weights, FEATURES};
use crate::learned::{self, NTupleEval};
use crate::search::Limits;

/// What a searching bot is made of, as its options set it.
pub(crate) struct SearchSetup {
    /// Limits, table, opponent model and time management.
    pub options: SearchOptions,
    /// The linear evaluation (the leaves', unless `net` is set; the opponent judge's always).
    pub eval: LinearEval,
    /// The n-tuple evaluation at the leaves, if any: `search`'s line-pattern tables by
    /// default, none (linear leaves) for `search-hand`.
    pub net: Option<NTupleEval>,
    /// Corrections to the linear evaluation's weights, applied once every option is read.
    pub scales: EvalScales,
}

/// Multipliers of the linear evaluation's weights ([`Weights::scaled`]): its positional part
/// (every feature but the score) in the game's first third (turns 0-15), second (16-31) and
/// last (32-48), and each feature's weight on top, set by group ([`FEATURE_GROUPS`]). 1
/// leaves the fit as it is.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct EvalScales {
    pub positional: [f64; 3],
    /// By feature, in the order of [`FEATURE_NAMES`](crate::eval::FEATURE_NAMES) (the score's
    /// is never used).
    pub features: [f64; FEATURES],
}

impl Default for EvalScales {
    fn default() -> Self {
        EvalScales {
            positional: [1.0; 3],
            features: [1.0; FEATURES],
        }
    }
}

/// The evaluation's features in groups that one option scales together, by their indices in
/// [`FEATURE_NAMES`](crate::eval::FEATURE_NAMES): what SPSA may tune as corrections to the fit
/// (`search:threat=110`).
pub(crate) const FEATURE_GROUPS: [(&str, &[usize]); 6] = [
    ("threat", &[1, 2]),      // threat_max, threat_rest
    ("pot", &[3, 4, 13, 14]), // potential, sandwiches, open_windows, gap_pairs
    ("holes", &[5, 6]),       // holes1, holes2
    ("rings", &[7, 8, 9]),    // ring1, ring2, centre_distance
    ("bag", &[10]),           // bag_max
    ("mob", &[11, 12]),       // mobility, idle_mobility
];

impl EvalScales {
    /// The evaluation with these corrections: itself when there are none; otherwise the
    /// scaled weights without the shipped calibration, which was fitted for the weights as
    /// they are (as `weights=FILE`).
    fn apply(self, eval: LinearEval) -> LinearEval {
        if self == EvalScales::default() {
            return eval;
        }
        let third = |turn: usize| self.positional[(turn / 16).min(2)];
        LinearEval::new(
            eval.weights()
                .scaled(third, |feature| self.features[feature]),
        )
    }
}

/// One option of the searching bots.
pub struct SearchOption {
    /// The key before `=`.
    pub key: &'static str,
    /// What the value is (`N`, `MS`, `FILE`, `0|1`).
    pub value: &'static str,
    /// What it is for: `limits`, `evaluation`, `opponent`, or an experiment on the test
    /// ladder (`time`), which becomes the default or leaves the code.
    pub group: &'static str,
    /// What it does.
    pub help: &'static str,
    set: fn(&mut SearchSetup, &str) -> Result<(), String>,
}

/// Every option of the searching bots (`search`, `search-hand`), by group.
pub const SEARCH_OPTIONS: &[SearchOption] = &[
    SearchOption {
        key: "nodes",
        value: "N",
        group: "limits",
        help: "search N positions per move (reproducible) instead of playing to the clock",
        set: |s, v| {
            s.limits().nodes = Some(whole(v)?);
            Ok(())
        },
    },
    SearchOption {
        key: "depth",
        value: "N",
        group: "limits",
        help: "search N moves deep (draws count) instead of playing to the clock",
        set: |s, v| {
            s.limits().depth = Some(whole(v)?.min(1000) as u32);
            Ok(())
        },
    },
    SearchOption {
        key: "time",
        value: "MS",
        group: "limits",
        help: "search MS milliseconds per move instead of sharing the game's clock",
        set: |s, v| {
            s.limits().time = Some(Duration::from_millis(whole(v)?));
            Ok(())
        },
    },
    SearchOption {
        key: "tt",
        value: "MIB",
        group: "limits",
        help: "the transposition table's size in MiB (16)",
        set: |s, v| {
            s.options.table_mib = whole(v)?.clamp(1, 4096) as usize;
            Ok(())
        },
    },
    SearchOption {
        key: "weights",
        value: "FILE",
        group: "evaluation",
        help: "linear evaluation weights written by `entropy train`, at the leaves (in place of \
               the tables)",
        set: |s, v| {
            s.eval = LinearEval::new(Weights::read(v)?);
            s.net = None;
            Ok(())
        },
    },
    SearchOption {
        key: "eval",
        value: "tables|linear|net",
        group: "evaluation",
        help: "the leaves' evaluation: the line-pattern tables over the linear one (`search`'s \
               default), the linear one alone (`search-hand`'s), or `entropy train-net`'s model",
        set: |s, v| {
            s.net = match v {
                "tables" => Some(NTupleEval::tables()),
                "linear" => None,
                "net" => Some(NTupleEval::trained()),
                _ => return Err(format!("eval={v}: use tables, linear or net")),
            };
            Ok(())
        },
    },
    SearchOption {
        key: "net",
        value: "FILE",
        group: "evaluation",
        help: "an n-tuple model written by `entropy train-net` at the leaves",
        set: |s, v| {
            s.net = Some(NTupleEval::new(learned::load_model(v)?));
            Ok(())
        },
    },
    SearchOption {
        key: "early",
        value: "PERCENT",
        group: "evaluation",
        help: "the linear evaluation's weights but the score's, turns 0-15, in percent (100)",
        set: |s, v| scale(&mut s.scales.positional[0], v),
    },
    SearchOption {
        key: "mid",
        value: "PERCENT",
        group: "evaluation",
        help: "the same for turns 16-31 (100)",
        set: |s, v| scale(&mut s.scales.positional[1], v),
    },
    SearchOption {
        key: "late",
        value: "PERCENT",
        group: "evaluation",
        help: "the same for turns 32-48 (100)",
        set: |s, v| scale(&mut s.scales.positional[2], v),
    },
    SearchOption {
        key: "threat",
        value: "PERCENT",
        group: "evaluation",
        help: "the linear evaluation's threat weights (threat_max, threat_rest), in percent of \
               the rest's (100)",
        set: |s, v| scale_group(s, "threat", v),
    },
    SearchOption {
        key: "pot",
        value: "PERCENT",
        group: "evaluation",
        help: "the potential features' weights (potential, sandwiches, open_windows, gap_pairs), \
               in percent, on top (100)",
        set: |s, v| scale_group(s, "pot", v),
    },
    SearchOption {
        key: "holes",
        value: "PERCENT",
        group: "evaluation",
        help: "the holes features' weights (holes1, holes2), in percent, on top (100)",
        set: |s, v| scale_group(s, "holes", v),
    },
    SearchOption {
        key: "rings",
        value: "PERCENT",
        group: "evaluation",
        help: "the placement features' weights (ring1, ring2, centre_distance), in percent, on \
               top (100)",
        set: |s, v| scale_group(s, "rings", v),
    },
    SearchOption {
        key: "bag",
        value: "PERCENT",
        group: "evaluation",
        help: "the bag feature's weight (bag_max), in percent, on top (100)",
        set: |s, v| scale_group(s, "bag", v),
    },
    SearchOption {
        key: "mob",
        value: "PERCENT",
        group: "evaluation",
        help: "the mobility features' weights (mobility, idle_mobility), in percent, on top (100)",
        set: |s, v| scale_group(s, "mob", v),
    },
    SearchOption {
        key: "model",
        value: "0|1",
        group: "opponent",
        help: "0: never assume the opponent greedy or weak (1)",
        set: |s, v| {
            s.options.model_opponent = flag(v)?;
            Ok(())
        },
    },
    SearchOption {
        key: "weak",
        value: "TENTHS",
        group: "opponent",
        help: "mean regret per move, in tenths of a point, above which the opponent counts as \
               weak (20); 0 never",
        set: |s, v| {
            let tenths = whole(v)?;
            s.options.weak_regret = (tenths > 0).then_some(tenths as f64 / 10.0);
            Ok(())
        },
    },
    SearchOption {
        key: "greedy",
        value: "TENTHS",
        group: "opponent",
        help: "mean regret per move, in tenths of a point, the opponent must reach before it \
               reads as greedy (5, passed the ladder's STC and LTC; as Chaos the search then \
               assumes Order greedy); 0: its share of greedy's moves alone decides (the \
               previous default)",
        set: |s, v| {
            let tenths = whole(v)?;
            s.options.greedy_regret = (tenths > 0).then_some(tenths as f64 / 10.0);
            Ok(())
        },
    },
    SearchOption {
        key: "handgreedy",
        value: "0|1",
        group: "opponent",
        help: "1 (the default, +5.4 a deal against greedy at 30 s): as Chaos, while it \
               assumes Order greedy, value the leaves with the hand weights; 0: the previous \
               default",
        set: |s, v| {
            s.options.hand_vs_greedy = flag(v)?;
            Ok(())
        },
    },
    SearchOption {
        key: "unfinished",
        value: "0|1",
        group: "time",
        help: "1 (the default, passed the ladder's STC and LTC): keep a stopped iteration's \
               best finished root move; 0: the previous default",
        set: |s, v| {
            s.options.unfinished = flag(v)?;
            Ok(())
        },
    },
    SearchOption {
        key: "hard",
        value: "PERCENT",
        group: "time",
        help: "percent of its allotted time a move's last iteration may run to (100)",
        set: |s, v| {
            s.options.hard_share = real(v)?.max(1.0) / 100.0;
            Ok(())
        },
    },
    SearchOption {
        key: "peak",
        value: "X",
        group: "time",
        help: "the time profile's mid-game bump: turn x weighs 0.5 / X + sin(pi x)^X (1)",
        set: |s, v| {
            s.options.peak = real(v)?.clamp(0.25, 16.0);
            Ok(())
        },
    },
];

impl SearchSetup {
    /// The fixed limits, made on the first limit given (without any, the bot plays to the
    /// clock).
    fn limits(&mut self) -> &mut Limits {
        self.options.limits.get_or_insert_with(Limits::default)
    }
}

/// Applies `search:` options (comma-separated `KEY=VALUE`) to a setup; the error says what was
/// wrong with which option, and what the keys are.
pub(crate) fn apply(options: &str, mut setup: SearchSetup) -> Result<SearchSetup, String> {
    for option in options.split(',').filter(|o| !o.is_empty()) {
        let known = option
            .split_once('=')
            .and_then(|(key, value)| Some((SEARCH_OPTIONS.iter().find(|o| o.key == key)?, value)));
        let Some((entry, value)) = known else {
            let keys: Vec<String> = SEARCH_OPTIONS
                .iter()
                .map(|o| format!("{}={}", o.key, o.value))
                .collect();
            return Err(format!("bad option {option:?}: use {}", keys.join(", ")));
        };
        (entry.set)(&mut setup, value).map_err(|e| format!("{option}: {e}"))?;
    }
    if setup.scales != EvalScales::default() && setup.net.is_some() {
        // Scaling weights the leaves do not read would change nothing but the opponent's judge.
        return Err(
            "early, mid, late, threat, pot, holes, rings, bag and mob scale the linear \
                    evaluation's weights: add eval=linear to search with it at the leaves"
                .into(),
        );
    }
    setup.eval = setup.scales.apply(setup.eval);
    Ok(setup)
}

fn whole(value: &str) -> Result<u64, String> {
    value
        .parse()
        .map_err(|_| format!("{value:?} is not a whole number"))
}

fn real(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("{value:?} is not a number")),
    }
}

/// A percentage option as a multiplier; negative weights would turn the fit around.
fn scale(to: &mut f64, value: &str) -> Result<(), String> {
    *to = real(value)?.clamp(0.0, 1000.0) / 100.0;
    Ok(())
}

/// Sets every feature of the named group of [`FEATURE_GROUPS`] to the percentage `value`.
fn scale_group(setup: &mut SearchSetup, group: &str, value: &str) -> Result<(), String> {
    let mut factor = 1.0;
    scale(&mut factor, value)?;
    let (_, features) = FEATURE_GROUPS
        .iter()
        .find(|(name, _)| *name == group)
        .expect("a group of FEATURE_GROUPS");
    for &feature in *features {
        setup.scales.features[feature] = factor;
    }
    Ok(())
}

fn flag(value: &str) -> Result<bool, String> {
    match value {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(format!("{value:?}: use 0 or 1")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> SearchSetup {
        SearchSetup {
            options: SearchOptions::default(),
            eval: LinearEval::trained(),
            net: None,
            scales: EvalScales::default(),
        }
    }

    #[test]
    fn every_key_is_listed_once_and_tunables_are_options() {
        for (i, option) in SEARCH_OPTIONS.iter().enumerate() {
            assert!(
                SEARCH_OPTIONS[..i].iter().all(|o| o.key != option.key),
                "{} twice",
                option.key
            );
        }
        for tunable in super::super::search::TUNABLES {
            assert!(
                SEARCH_OPTIONS.iter().any(|o| o.key == tunable.name),
                "{} is tunable but no option",
                tunable.name
            );
        }
    }

    #[test]
    fn options_set_what_they_say() {
        let s = apply(
            "nodes=500,tt=8,unfinished=1,peak=1.5,hard=150,weak=0",
            setup(),
        )
        .unwrap();
        let limits = s.options.limits.unwrap();
        assert_eq!(limits.nodes, Some(500));
        assert_eq!(s.options.table_mib, 8);
        assert!(s.options.unfinished);
        assert_eq!((s.options.peak, s.options.hard_share), (1.5, 1.5));
        assert_eq!(s.options.weak_regret, None);
        // The table size alone leaves the bot on the clock.
        assert_eq!(apply("tt=8", setup()).unwrap().options.limits, None);
        assert_eq!(
            apply("", setup()).unwrap().options,
            SearchOptions::default()
        );
    }

    #[test]
    fn evaluation_scales_correct_the_weights_whatever_their_order() {
        use crate::eval::Evaluator as _;
        let plain = apply("early=100,threat=100", setup()).unwrap().eval;
        assert_eq!(plain.weights(), &Weights::trained());
        assert!(
            plain.calibration().is_some(),
            "unchanged weights keep theirs"
        );
        let threat = |feature: usize| if feature <= 2 { 1.25 } else { 1.0 };
        let expected =
            Weights::trained().scaled(|turn| [1.1, 0.9, 1.0][(turn / 16).min(2)], threat);
        for options in [
            "early=110,mid=90,threat=125",
            "threat=125,mid=90,early=110,late=100",
        ] {
            let eval = apply(options, setup()).unwrap().eval;
            assert_eq!(eval.weights(), &expected, "{options}");
            assert!(eval.calibration().is_none(), "fitted for other weights");
        }
    }

    #[test]
    fn feature_groups_name_their_features_once() {
        use crate::eval::FEATURE_NAMES;
        let mut seen = [false; FEATURES];
        for (group, features) in FEATURE_GROUPS {
            assert!(SEARCH_OPTIONS.iter().any(|o| o.key == group), "{group}");
            for &feature in features {
                assert!(feature > 0, "{group}: the score is never scaled");
                assert!(!seen[feature], "{} in two groups", FEATURE_NAMES[feature]);
                seen[feature] = true;
            }
        }
        assert_eq!(
            FEATURE_GROUPS[1]
                .1
                .iter()
                .map(|&f| FEATURE_NAMES[f])
                .collect::<Vec<_>>(),
            ["potential", "sandwiches", "open_windows", "gap_pairs"]
        );
        assert!(
            seen[1..].iter().all(|&s| s),
            "every feature but the score in a group"
        );
        let s = apply("pot=120,mob=50", setup()).unwrap();
        for (feature, name) in FEATURE_NAMES.iter().enumerate() {
            let expected = match feature {
                3 | 4 | 13 | 14 => 1.2,
                11 | 12 => 0.5,
                _ => 1.0,
            };
            assert_eq!(s.scales.features[feature], expected, "{name}");
        }
    }

    #[test]
    fn the_leaves_are_the_tables_unless_linear_is_asked_for() {
        // `search`'s setup: the tables at the leaves.
        let tables = || SearchSetup {
            net: Some(NTupleEval::tables()),
            ..setup()
        };
        assert!(apply("nodes=10", tables()).unwrap().net.is_some());
        assert!(apply("eval=linear", tables()).unwrap().net.is_none());
        assert!(apply("eval=tables", setup()).unwrap().net.is_some());
        // Scaling the linear weights asks for them at the leaves, in so many words.
        assert!(apply("eval=linear,threat=120", tables()).is_ok());
        let error = apply("threat=120", tables()).err().unwrap();
        assert!(error.contains("add eval=linear"), "{error}");
    }

    #[test]
    fn bad_options_are_named() {
        for (options, expected) in [
            ("nodes=x", "nodes=x: \"x\" is not a whole number"),
            ("speed=3", "bad option \"speed=3\": use nodes=N"),
            ("nodes", "bad option \"nodes\""),
            ("model=2", "model=2: \"2\": use 0 or 1"),
            ("peak=inf", "peak=inf: \"inf\" is not a number"),
            ("eval=deep", "eval=deep: use tables, linear or net"),
            ("threat=x", "threat=x: \"x\" is not a number"),
            (
                "weights=/no/such/file",
                "cannot read the weights file /no/such/file",
            ),
        ] {
            let error = apply(options, setup()).err().expect(options);
            assert!(error.contains(expected), "{options}: {error}");
        }
    }
}
