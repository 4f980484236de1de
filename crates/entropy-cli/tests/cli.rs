//! The `entropy` binary driven as a user drives it: arguments, standard input, files, exit codes.
//! The course protocol's tests are in course.rs, the analysis commands' in analysis.rs.

mod common;

use std::path::Path;
use std::process::Command;

use common::{assert_fails, data, entropy, records, scratch, text};

#[test]
fn score_reads_lines_and_reports_bad_ones_without_stopping() {
    let input = "3644446/2654336/7567253/1677745/2253543/1112111/7532627\n\
                 # a comment\n\
                 1234321/......./......./......./......./......./.......\n\
                 12345x/\n\
                 11111/22222/33333/44444/55555\n";
    let out = entropy(&["score"], input);
    assert_eq!(text(&out.stdout), "94\n15\n\n150\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("line 4"), "{stderr}");
    assert!(stderr.contains("at character 6"), "{stderr}");
    assert_eq!(out.status.code(), Some(1));

    let out = entropy(
        &["score", "--lines", "-"],
        "1234321/......./......./......./......./......./.......\n",
    );
    assert_eq!(
        text(&out.stdout),
        "15 rows=15,0,0,0,0,0,0 columns=0,0,0,0,0,0,0\n"
    );
    assert_eq!(out.status.code(), Some(0));

    let out = entropy(&["score", "/nonexistent/boards.txt"], "");
    assert_fails(&out, 2, "cannot open /nonexistent/boards.txt");
}

#[test]
fn score_vectors_file_through_the_binary() {
    let vectors = std::fs::read_to_string(data("score_vectors.txt")).unwrap();
    let boards: String = vectors
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{}\n", l.split_once(' ').unwrap().0))
        .collect();
    let expected: String = vectors
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{}\n", l.split_once(' ').unwrap().1))
        .collect();
    let out = entropy(&["score"], &boards);
    assert_eq!(text(&out.stdout), expected);
}

#[test]
fn match_between_built_in_bots_writes_records_and_resumes() {
    let dir = scratch("resume");
    let out_file = dir.join("games.jsonl");
    let out = out_file.to_str().unwrap();
    let first = entropy(
        &[
            "match", "greedy", "random", "--deals", "3", "--out", out, "--quiet",
        ],
        "",
    );
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert_eq!(records(&out_file).len(), 6);
    let summary = text(&first.stdout);
    assert!(summary.contains("paired margin"), "{summary}");
    // Each game's luck in the draws, valued 2 moves deep by default, and the margin less it.
    assert!(summary.contains("less the draws' luck"), "{summary}");
    let first_game = &records(&out_file)[0];
    assert_eq!(first_game["match"]["luck"], 2);
    assert!(first_game["luck"].is_f64(), "{first_game}");

    // Cut the last record in half, as a crash mid-write would, then ask for more deals.
    let content = std::fs::read_to_string(&out_file).unwrap();
    std::fs::write(&out_file, &content[..content.len() - 40]).unwrap();
    let second = entropy(
        &[
            "match", "greedy", "random", "--deals", "5", "--out", out, "--quiet",
        ],
        "",
    );
    assert!(second.status.success(), "{}", text(&second.stderr));
    let stderr = text(&second.stderr);
    assert!(
        stderr.contains("dropping unreadable") && stderr.contains("games.jsonl line 6"),
        "{stderr}"
    );
    assert!(stderr.contains("5 games recorded, 5 to play"), "{stderr}");
    let games = records(&out_file);
    assert_eq!(games.len(), 10);
    let mut keys: Vec<(u64, u64)> = games
        .iter()
        .map(|g| (g["deal"].as_u64().unwrap(), g["game"].as_u64().unwrap()))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 10, "no game twice");

    // Another match in the same file is refused.
    let other = entropy(
        &[
            "match", "random", "greedy", "--deals", "1", "--out", out, "--quiet",
        ],
        "",
    );
    assert_eq!(other.status.code(), Some(2));
    assert!(text(&other.stderr).contains("holds games of another match"));
    // So is the same match with its luck measured otherwise.
    let other = entropy(
        &[
            "match", "greedy", "random", "--deals", "5", "--out", out, "--quiet", "--luck", "0",
        ],
        "",
    );
    assert_eq!(other.status.code(), Some(2));
    assert!(text(&other.stderr).contains("luck depth 2"));
}

#[test]
fn records_summarise_a_match_and_compare_it_with_another_on_the_same_deals() {
    let dir = scratch("records");
    let play = |a: &str, b: &str, seed: &str, file: &str| {
        let path = dir.join(file);
        let out = entropy(
            &[
                "match",
                a,
                b,
                "--deals",
                "3",
                "--seed",
                seed,
                "--out",
                path.to_str().unwrap(),
                "--quiet",
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        (path, text(&out.stdout))
    };
    let (first, played) = play("greedy", "random", "4", "first.jsonl");
    let (second, _) = play("greedy", "greedy", "4", "second.jsonl");
    let (elsewhere, _) = play("greedy", "greedy", "5", "elsewhere.jsonl");

    // Read back, the summary is the one the match printed.
    let out = entropy(&["records", first.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), played);
    assert!(played.contains("median"), "{played}");

    let out = entropy(
        &[
            "records",
            first.to_str().unwrap(),
            "--against",
            second.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("3 deals both played on the same chips"),
        "{stdout}"
    );
    assert!(
        stdout.contains("margin less the other's, deal by deal"),
        "{stdout}"
    );
    assert!(stdout.contains("the same less the draws' luck"), "{stdout}");

    let out = entropy(
        &[
            "records",
            first.to_str().unwrap(),
            "--against",
            elsewhere.to_str().unwrap(),
        ],
        "",
    );
    assert_fails(&out, 2, "dealt other chips");
    let missing = dir.join("missing.jsonl");
    let out = entropy(&["records", missing.to_str().unwrap()], "");
    assert_fails(&out, 2, "no such file");
    // Two matches' games in one file are refused rather than summarised as one.
    let mixed = dir.join("mixed.jsonl");
    let both =
        std::fs::read_to_string(&first).unwrap() + &std::fs::read_to_string(&second).unwrap();
    std::fs::write(&mixed, both).unwrap();
    let out = entropy(&["records", mixed.to_str().unwrap()], "");
    assert_fails(&out, 2, "holds games of two matches");
}

#[test]
fn an_sprt_match_stops_when_it_decides_and_resumes_to_the_same_decision() {
    let dir = scratch("sprt");
    let out_file = dir.join("games.jsonl");
    let out = out_file.to_str().unwrap();
    let args = [
        "match",
        "greedy",
        "random",
        "--size",
        "5",
        "--sprt",
        "0,5",
        "--out",
        out,
        "--quiet",
        "--clock-b",
        "20",
    ];
    let first = entropy(&args, "");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let summary = text(&first.stdout);
    assert!(summary.contains("H1 accepted"), "{summary}");
    assert!(summary.contains("30 s (A) / 20 s (B) clock"), "{summary}");
    let games = records(&out_file);
    // Greedy beats random by about 37 points a deal on 5x5: the test decides within a few dozen
    // deals, far below the 1000 allowed. Deals count in deal order, so on a loaded machine
    // (the other tests run beside this one) a thread that runs ahead may have played many
    // more games when the decision comes: 135 were seen once.
    assert!(games.len() < 300, "{} games", games.len());
    let last = games.last().unwrap();
    assert_eq!(last["match"]["clock_b_ms"], 20_000);
    let sprt = &last["sprt"];
    assert_eq!(sprt["decision"], "H1", "{last}");
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap());
    let line = summary
        .lines()
        .find(|l| l.starts_with("SPRT"))
        .unwrap()
        .to_owned();

    // Run again: nothing more is played, the same decision at the same deal.
    let second = entropy(&args, "");
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(text(&second.stderr).contains("already decided"));
    assert_eq!(records(&out_file).len(), games.len());
    assert!(
        text(&second.stdout).contains(&line),
        "{}",
        text(&second.stdout)
    );
}

#[test]
fn codecup_plays_through_the_arena_against_itself_without_forfeits() {
    let dir = scratch("self");
    let out_file = dir.join("self.jsonl");
    let binary = env!("CARGO_BIN_EXE_entropy");
    let a = format!("cmd:{binary} codecup --bot search:nodes=1000 --seed 7");
    let b = format!("cmd:{binary} codecup --bot random");
    let run = entropy(
        &[
            "match",
            &a,
            &b,
            "--deals",
            "4",
            "--jobs",
            "2",
            "--out",
            out_file.to_str().unwrap(),
            "--quiet",
        ],
        "",
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let games = records(&out_file);
    assert_eq!(games.len(), 8);
    for game in &games {
        assert_eq!(game["termination"], "normal", "{game}");
        assert_eq!(game["moves"].as_array().unwrap().len(), 97);
    }
}

#[test]
fn broken_players_forfeit_and_the_match_goes_on() {
    let dir = scratch("broken");
    for (script, reason, clock) in [
        ("crash.sh", "crash", "5"),
        ("hang.sh", "timeout", "0.3"),
        ("garbage.sh", "garbage", "5"),
        ("illegal.sh", "illegal", "5"),
    ] {
        let out_file = dir.join(format!("{script}.jsonl"));
        let player = format!("cmd:{}", data("players").join(script).display());
        let run = entropy(
            &[
                "match",
                "random",
                &player,
                "--deals",
                "2",
                "--clock",
                clock,
                "--out",
                out_file.to_str().unwrap(),
            ],
            "",
        );
        assert!(run.status.success(), "{script}: {}", text(&run.stderr));
        let games = records(&out_file);
        assert_eq!(games.len(), 4, "{script}");
        for game in &games {
            // Player B (the script) forfeits; the jury finishes the game on a full board.
            let forfeits = game["forfeits"].as_array().unwrap();
            let side = if game["order"]["player"] == "B" {
                "order"
            } else {
                "chaos"
            };
            assert_eq!(forfeits.len(), 1, "{script}: {game}");
            assert_eq!(forfeits[0]["role"], side, "{script}");
            assert_eq!(forfeits[0]["reason"], reason, "{script}: {}", forfeits[0]);
            assert_eq!(game[side]["points"], 0, "{script}");
            assert!(
                !game["board"].as_str().unwrap().contains('.'),
                "{script}: board not full"
            );
        }
        let stderr = text(&run.stderr);
        assert!(stderr.contains("forfeits on turn"), "{script}: {stderr}");
        if script == "crash.sh" {
            assert!(
                stderr.contains("giving up after"),
                "the crash report carries its stderr: {stderr}"
            );
        }
        let summary = text(&run.stdout);
        assert!(summary.contains(reason), "{script}: {summary}");
    }
}

#[test]
fn play_explains_mistakes_and_goes_on() {
    // As Chaos with a fixed seed: a typo, an occupied cell, then legal placements; input ends.
    let out = entropy(
        &[
            "play",
            "--role",
            "chaos",
            "--bot",
            "greedy",
            "--seed",
            "5",
            "--no-color",
        ],
        "Zz\nhelp\nAa\nAa\nmoves\nBb\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("Cannot read \"Zz\""), "{stdout}");
    // Greedy passes after the first chip (nothing gains), so Aa is still taken.
    assert!(stdout.contains("greedy (order) plays pass\n"), "{stdout}");
    assert!(
        stdout.contains("Not allowed: Aa is already occupied"),
        "{stdout}"
    );
    assert!(stdout.contains("legal moves:"), "{stdout}");
    assert!(
        stdout.contains("Game abandoned. Replay it with --seed 5."),
        "{stdout}"
    );

    // As Order, passing to the end on a 5x5 board finishes the game and prints the score.
    // A hint and an evaluation on the way; a review of each side's mistakes at the end.
    let passes = format!("hint\neval\n{}", "pass\n".repeat(30));
    let out = entropy(
        &[
            "play",
            "--size",
            "5",
            "--seed",
            "3",
            "--no-color",
            "--hint-nodes",
            "20000",
        ],
        &passes,
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Game over: Order scores"), "{stdout}");
    assert!(stdout.contains("Hint: "), "{stdout}");
    assert!(
        stdout.contains("Order's expected final score: "),
        "{stdout}"
    );
    assert!(stdout.contains("order (you): "), "{stdout}");
    assert!(stdout.contains("chaos (greedy): "), "{stdout}");
    // Passing all game long gives points away: the review names the biggest.
    assert!(stdout.contains("pass instead of"), "{stdout}");
}

#[test]
fn perft_counts_and_bench_runs() {
    let out = entropy(&["perft", "--depth", "3"], "");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("depth  3            4459"), "{stdout}");
    let out = entropy(
        &[
            "perft",
            "--depth",
            "1",
            "12345/...../...../...../..... slide",
        ],
        "",
    );
    // Five chips along the top row of a 5x5 board: each slides down 1 to 4 cells, or pass.
    assert!(
        text(&out.stdout).contains("depth  1              21"),
        "{}",
        text(&out.stdout)
    );
    let out = entropy(&["perft", "not a position"], "");
    assert_fails(&out, 2, "cannot read the position");

    // The signatures kept in the repo: a change of move generation, scoring or the bots'
    // choices shows in this file's diff, with the commit saying why.
    let kept = std::fs::read_to_string(data("bench-signature.txt")).unwrap();
    let kept = |name: &str| -> String {
        kept.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} line in tests/data/bench-signature.txt"))
            .trim()
            .to_owned()
    };
    for (args, name) in [(&["--quick"][..], "quick"), (&[][..], "full")] {
        let mut command = vec!["bench", "--runs", "1"];
        command.extend(args);
        let out = entropy(&command, "");
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let signature = stdout
            .lines()
            .find_map(|l| l.strip_prefix("signature"))
            .unwrap_or_else(|| panic!("no signature in {stdout}"))
            .trim();
        assert_eq!(signature, kept(name), "entropy bench {args:?}: {stdout}");
    }
}

#[test]
fn bad_arguments_are_explained() {
    let out = entropy(
        &[
            "match",
            "nobody-such-bot-xyz/",
            "greedy",
            "--deals",
            "0",
            "--size",
            "9",
        ],
        "",
    );
    assert_fails(&out, 2, "board size 9 is not supported");
    let out = entropy(&["codecup", "--bot", "nobody"], "");
    assert!(
        text(&out.stderr).contains("unknown bot \"nobody\""),
        "{}",
        text(&out.stderr)
    );
    let out = entropy(&["match", "--clock=-1"], "");
    assert!(
        text(&out.stderr).contains("--clock must be a positive number"),
        "{}",
        text(&out.stderr)
    );
    for (args, expected) in [
        (
            &["match", "--clock-b=0"][..],
            "--clock-b must be a positive number",
        ),
        (&["match", "--sprt", "5"], "is not two margins M0,M1"),
        (&["match", "--sprt", "5,0"], "must be above its H0 margin"),
        (
            &["match", "--sprt", "0,5", "--alpha", "0.9"],
            "alpha must be between",
        ),
        (&["match", "--alpha", "0.1"], "--sprt"),
    ] {
        let out = entropy(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn the_baseline_script_explains_its_use_and_bad_revisions() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/baseline.sh");
    let help = Command::new("bash")
        .arg(&script)
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    assert!(text(&help.stdout).contains("Usage: scripts/baseline.sh REV"));
    let bad = Command::new("bash")
        .arg(&script)
        .arg("no-such-revision-xyz")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("no-such-revision-xyz is not a revision"));
}

#[test]
fn the_gauntlet_script_explains_its_use_and_bad_options() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/gauntlet.sh");
    let run = |args: &[&str]| {
        Command::new("bash")
            .arg(&script)
            .args(args)
            .output()
            .unwrap()
    };
    let help = run(&["--help"]);
    assert!(help.status.success());
    let usage = text(&help.stdout);
    assert!(
        usage.contains("Usage: scripts/gauntlet.sh CANDIDATE"),
        "{usage}"
    );
    assert!(usage.contains("--against R"), "{usage}");
    assert!(
        !usage.contains("set -euo"),
        "the usage stops at the comment: {usage}"
    );
    let bad = run(&["search", "--bogus"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown option --bogus"));
    let missing = run(&["search", "--against"]);
    assert_ne!(missing.status.code(), Some(0));
    assert!(text(&missing.stderr).contains("--against needs a player"));
    assert_eq!(run(&[]).status.code(), Some(2));
}

#[test]
fn train_makes_the_folder_of_its_weights_and_refuses_an_impossible_one_before_playing() {
    let dir = scratch("train-out");
    let out_path = dir.join("new/folder/weights.txt");
    let train = |out: &str| {
        let mut args = vec!["train", "--games", "1", "--generations", "1"];
        args.extend(["--nodes", "10", "--jobs", "1", "--quiet", "--out", out]);
        entropy(&args, "")
    };
    let out = train(out_path.to_str().unwrap());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&out_path)
        .unwrap()
        .contains("made by: entropy train"));
    // A folder where a file is: refused at once, naming the path.
    let blocked = dir.join("new/folder/weights.txt/w.txt");
    let blocked = blocked.to_str().unwrap();
    let out = train(blocked);
    assert_fails(&out, 2, &format!("cannot write {blocked}"));
    assert!(!text(&out.stdout).contains("generation 1"));
}

#[test]
fn train_tables_writes_a_model_the_search_plays_and_refuses_bad_settings() {
    let dir = scratch("train-tables");
    let out_path = dir.join("t/tables.bin");
    let out_path = out_path.to_str().unwrap();
    let train = |out: &str, more: &[&str]| {
        let mut args = vec![
            "train-tables",
            "--games",
            "5",
            "--nodes",
            "30",
            "--epochs",
            "2",
        ];
        args.extend(["--jobs", "1", "--quiet", "--out", out]);
        args.extend(more);
        let run = entropy(&args, "");
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        run
    };
    let out = train(out_path, &["--generations", "1"]);
    assert!(
        text(&out.stdout).contains("epoch 2:"),
        "{}",
        text(&out.stdout)
    );
    let model = std::fs::read(out_path).unwrap();
    assert!(String::from_utf8_lossy(&model).contains("made by: entropy train-tables"));
    // The search plays with it at the leaves.
    let player = format!("search:nodes=200,net={out_path}");
    let games = dir.join("games.jsonl");
    let played = entropy(
        &[
            "match",
            &player,
            "greedy",
            "--deals",
            "1",
            "--quiet",
            "--out",
            games.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    // The next generation: games searched with these tables at the leaves.
    let next_path = dir.join("t/next.bin");
    let next_path = next_path.to_str().unwrap();
    train(next_path, &["--leaves", out_path, "--generations", "1"]);
    let next = std::fs::read(next_path).unwrap();
    assert!(String::from_utf8_lossy(&next).contains(&format!("--leaves {out_path}")));
    // Three generations in one run make the models of three runs, each with the last's tables
    // at its leaves, the earlier ones next to the last; only their commands differ. (The
    // default's five work alike, each generation a run.)
    let all_path = dir.join("all/tables.bin");
    let all_path = all_path.to_str().unwrap();
    let all = train(all_path, &["--generations", "3"]);
    assert!(
        text(&all.stdout).contains("generation 3 of 3"),
        "{}",
        text(&all.stdout)
    );
    assert_eq!(
        std::fs::read(dir.join("all/tables.gen1.bin")).unwrap(),
        model
    );
    let second = std::fs::read(dir.join("all/tables.gen2.bin")).unwrap();
    let made_by = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        let line = text
            .lines()
            .find(|line| line.starts_with("# made by: "))
            .unwrap();
        (line.to_owned(), bytes.len() - line.len())
    };
    let (next_line, next_rest) = made_by(&next);
    let (second_line, second_rest) = made_by(&second);
    assert!(
        second_line.ends_with("--weights trained --generations 2"),
        "{second_line}"
    );
    assert_eq!(next_rest, second_rest);
    let without = |bytes: &[u8], line: &str| {
        let at = bytes
            .windows(line.len())
            .position(|window| window == line.as_bytes())
            .unwrap();
        [&bytes[..at], &bytes[at + line.len()..]].concat()
    };
    assert_eq!(without(&next, &next_line), without(&second, &second_line));
    // The third's leaves are the second's tables, as a run with `--leaves` of them would have.
    let second_path = dir.join("all/tables.gen2.bin");
    let second_path = second_path.to_str().unwrap();
    let third = std::fs::read(all_path).unwrap();
    let (third_line, _) = made_by(&third);
    assert!(
        third_line.ends_with("--weights trained --generations 3"),
        "{third_line}"
    );
    let again_path = dir.join("t/again.bin");
    let again_path = again_path.to_str().unwrap();
    train(again_path, &["--leaves", second_path, "--generations", "1"]);
    let again = std::fs::read(again_path).unwrap();
    let (again_line, _) = made_by(&again);
    assert_eq!(without(&again, &again_line), without(&third, &third_line));
    for (bad, says) in [
        (["--games", "1"], "--games must be at least 2"),
        (["--epochs", "0"], "--epochs and --generations at least 1"),
        (
            ["--generations", "0"],
            "--epochs and --generations at least 1",
        ),
        (["--lambda", "2"], "--lambda must be in [0, 1]"),
        (["--weights", "/no/such/file"], "/no/such/file"),
        (
            ["--leaves", "/no/such/file"],
            "--leaves: cannot read weights /no/such/file",
        ),
        (["--leaves", "Cargo.toml"], "--leaves: weights Cargo.toml"),
    ] {
        let mut args = vec!["train-tables", "--quiet", "--out", out_path];
        args.extend(bad);
        assert_fails(&entropy(&args, ""), 2, says);
    }
}

#[test]
fn teacher_data_records_both_roles_resumes_and_refuses_bad_settings() {
    let dir = scratch("teacher-data");
    let out = dir.join("t/teacher.txt");
    let out = out.to_str().unwrap();
    let run = |games: &str, more: &[&str]| {
        let mut args = vec!["teacher-data", "--games", games, "--nodes", "200"];
        args.extend([
            "--opponent",
            "greedy",
            "--jobs",
            "2",
            "--quiet",
            "--out",
            out,
        ]);
        args.extend(more);
        entropy(&args, "")
    };
    let first = run("2", &["--top", "3"]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let data = std::fs::read_to_string(out).unwrap();
    // Game 0 self-play (every decision: 49 placements and 48 slides), game 1 against greedy
    // (the searcher as Order: 48 slides).
    let decisions = |data: &str, game: &str| {
        data.lines()
            .filter(|line| line.split(' ').next() == Some(game) && line.contains(" | "))
            .count()
    };
    assert_eq!((decisions(&data, "0"), decisions(&data, "1")), (97, 48));
    assert!(data.starts_with("# entropy teacher-data --seed 1 --nodes 200 --top 3"));
    // A larger --games plays only the new game; the old ones stay as they were.
    let more = run("3", &["--top", "3"]);
    assert_eq!(more.status.code(), Some(0), "{}", text(&more.stderr));
    let extended = std::fs::read_to_string(out).unwrap();
    assert!(extended.starts_with(&data));
    assert_eq!(decisions(&extended, "2"), 97);
    assert_fails(
        &run("3", &["--top", "4"]),
        2,
        "holds the games of another run",
    );
    for (bad, says) in [
        (["--top", "0"], "--top must be at least 1"),
        (["--explore", "2"], "--explore must be a chance in [0, 1]"),
        (["--temperature", "NaN"], "--temperature must be 0 or more"),
        (["--opponent", "nobody"], "--opponent: "),
    ] {
        assert_fails(&run("1", &bad), 2, says);
    }
}

#[test]
fn a_non_regression_test_takes_bounds_below_zero_joined_to_its_option() {
    // scripts/sprt.sh's `nonreg` preset passes `--sprt=-1.5,0.5`: written apart, the lower
    // bound would read as an option.
    let dir = scratch("sprt-negative");
    let out = dir.join("nonreg.jsonl");
    let run = entropy(
        &[
            "match",
            "random",
            "random",
            "--deals",
            "4",
            "--jobs",
            "1",
            "--luck",
            "0",
            "--sprt=-1.5,0.5",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains("SPRT [-1.5, 0.5]"),
        "{}",
        text(&run.stdout)
    );
    let script = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/sprt.sh"),
    )
    .unwrap();
    assert!(
        script.contains("\"--sprt=$bounds\""),
        "sprt.sh joins its bounds to --sprt"
    );
}
