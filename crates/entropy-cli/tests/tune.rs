//! `entropy tune` driven as a user drives it: a short SPSA run, its CSV, resuming, bad input.

mod common;

use common::{entropy, scratch, text};

#[test]
fn tune_writes_its_trajectory_and_resumes() {
    let dir = scratch("resume");
    let csv = dir.join("t.csv");
    let run = |iterations: &str| {
        entropy(
            &[
                "tune",
                "--nodes",
                "150",
                "--iterations",
                iterations,
                "--jobs",
                "2",
                "--param",
                "greedy",
                "--param",
                "weak=10",
                "--out",
                csv.to_str().unwrap(),
            ],
            "",
        )
    };
    let out = run("2");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(lines.len(), 4, "{written}");
    assert!(
        lines[0].starts_with("# entropy tune base=search nodes=150"),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        "iteration,margin,forfeits,plus_greedy,plus_weak,minus_greedy,minus_weak,greedy,weak"
    );
    for (k, line) in lines[2..].iter().enumerate() {
        let cells: Vec<f64> = line.split(',').map(|c| c.parse().unwrap()).collect();
        assert_eq!(cells[0], k as f64);
        assert_eq!(cells[2], 0.0, "no forfeits");
        // The two players straddle the estimate; both are played whole.
        assert_eq!((cells[3].fract(), cells[4].fract()), (0.0, 0.0));
        assert!(cells[3] != cells[5], "{line}");
    }
    let stdout = text(&out.stdout);
    assert!(stdout.contains("as a player: search:greedy="), "{stdout}");
    assert!(stdout.contains("scripts/sprt.sh"), "{stdout}");

    // The same command again has nothing to play; a line cut short is played again.
    let again = run("2");
    assert!(
        text(&again.stderr).contains("all 2 iterations done"),
        "{}",
        text(&again.stderr)
    );
    let cut = &written[..written.len() - 5];
    std::fs::write(&csv, cut).unwrap();
    let resumed = run("2");
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert!(
        text(&resumed.stderr).contains("1 iterations done"),
        "{}",
        text(&resumed.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        written,
        "the same iteration again"
    );

    // Other settings do not resume this file.
    let other = run("3");
    assert!(!other.status.success());
    assert!(
        text(&other.stderr).contains("written by another run"),
        "{}",
        text(&other.stderr)
    );
}

#[test]
fn tune_explains_bad_options() {
    let out = entropy(&["tune", "--param", "speed"], "");
    assert!(!out.status.success());
    let error = text(&out.stderr);
    assert!(
        error.contains("\"speed\"") && error.contains("weak, greedy"),
        "{error}"
    );
    let out = entropy(&["tune", "--param", "weak=1000"], "");
    assert!(
        text(&out.stderr).contains("from 1 to 100"),
        "{}",
        text(&out.stderr)
    );
    let out = entropy(&["tune", "--base", "greedy"], "");
    assert!(
        text(&out.stderr).contains("--base"),
        "{}",
        text(&out.stderr)
    );
    let list = entropy(&["tune", "--list"], "");
    assert!(
        text(&list.stdout).contains("weak"),
        "{}",
        text(&list.stdout)
    );
}
