//! The `entropy` binary driven as a user drives it: arguments, standard input, files, exit codes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn entropy(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_entropy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(path)
}

/// A fresh scratch directory per test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("entropy-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn records(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

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
    assert!(text(&out.stderr).contains("cannot open /nonexistent/boards.txt"));
    assert_eq!(out.status.code(), Some(2));
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
    assert!(stderr.contains("dropping unreadable line 6"), "{stderr}");
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
    assert!(
        stdout.contains("Not allowed: Aa is already occupied")
            || stdout.contains("greedy (order) plays Aa"),
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
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read the position"));

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
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("board size 9 is not supported"));
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

/// Starts `entropy course-server` on a free port; returns the child and the port.
fn course_server(extra: &[&str]) -> (std::process::Child, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_entropy"))
        .args(["course-server", "--port", "0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    use std::io::BufRead;
    stderr.read_line(&mut line).unwrap();
    let port: u16 = line
        .trim()
        .rsplit(':')
        .next()
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in stderr.lines() {});
    (child, port)
}

#[test]
fn course_clients_play_our_server_for_both_sizes() {
    for size in ["5", "7"] {
        let dir = scratch(&format!("course{size}"));
        let log = dir.join("games.jsonl");
        let (server, port) = course_server(&[
            "--size",
            size,
            "--time",
            "60",
            "--log",
            log.to_str().unwrap(),
        ]);
        let port = port.to_string();
        let spawn_client = |bot: &str| {
            Command::new(env!("CARGO_BIN_EXE_entropy"))
                .args([
                    "course-client",
                    "--port",
                    &port,
                    "--bot",
                    bot,
                    "--move-time",
                    "0.02",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let a = spawn_client("search:nodes=500");
        std::thread::sleep(std::time::Duration::from_millis(100));
        let b = spawn_client("greedy");
        for client in [a, b] {
            let out = client.wait_with_output().unwrap();
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
        let out = server.wait_with_output().unwrap();
        assert!(out.status.success());
        assert!(
            text(&out.stdout).contains("scored"),
            "{}",
            text(&out.stdout)
        );
        let games = records(&log);
        assert_eq!(games.len(), 2);
        for game in games {
            assert_eq!(game["termination"], "normal", "{game}");
            assert!(!game["board"].as_str().unwrap().contains('.'));
        }
    }
}

#[test]
fn the_course_server_survives_broken_clients() {
    use std::io::{BufRead, BufReader, Write as _};
    let dir = scratch("course-broken");
    let log = dir.join("games.jsonl");
    let (server, port) =
        course_server(&["--size", "5", "--time", "2", "--log", log.to_str().unwrap()]);
    // A client that sends garbage to every line, and one that disconnects after its greeting.
    let garbage = std::thread::spawn(move || {
        let stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut writer = stream.try_clone().unwrap();
        for line in BufReader::new(stream).lines() {
            if line.is_err() {
                break;
            }
            let _ = writeln!(writer, "hello server");
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(100));
    {
        let stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
    }
    let out = server.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    garbage.join().unwrap();
    let games = records(&log);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game["termination"], "forfeit");
        assert!(
            !game["board"].as_str().unwrap().contains('.'),
            "the jury finished the game"
        );
    }
    let reasons: Vec<String> = games
        .iter()
        .flat_map(|g| {
            g["forfeits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["reason"].to_string())
        })
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("hello server") || r.contains("invalid")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("disconnected") || r.contains("write failed")),
        "{reasons:?}"
    );
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
fn analyse_reviews_a_match_file_and_a_transcript() {
    let dir = scratch("analyse");
    let records = dir.join("m.jsonl");
    let out = entropy(
        &[
            "match",
            "greedy",
            "random",
            "--size",
            "5",
            "--deals",
            "1",
            "--quiet",
            "--out",
            records.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = entropy(
        &[
            "analyse",
            records.to_str().unwrap(),
            "--nodes",
            "2000",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let decisions = lines.iter().filter(|l| l["type"] == "decision").count();
    // Two games of 25 chips: 25 placements and 24 or 25 Order moves each.
    assert!((96..=100).contains(&decisions), "{decisions}");
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["games"], 2);
    assert!(lines
        .iter()
        .filter(|l| l["type"] == "decision")
        .all(|l| l["loss"].as_f64().unwrap() >= 0.0));
    // Node-limited: the same figures again.
    let again = entropy(
        &[
            "analyse",
            records.to_str().unwrap(),
            "--nodes",
            "2000",
            "--json",
            "-j",
            "1",
        ],
        "",
    );
    let strip = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.contains("\"summary\""))
            .map(String::from)
            .collect()
    };
    assert_eq!(strip(&text(&out.stdout)), strip(&text(&again.stdout)));

    let transcript = data("codecup/greedy-as-order.txt");
    let out = entropy(
        &[
            "analyse",
            transcript.to_str().unwrap(),
            "--nodes",
            "1000",
            "--summary-only",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("summary: 1 game, 96 decisions"),
        "{}",
        text(&out.stdout)
    );

    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"moves\":[\"3Aa\",\"AaAa\",\"3Aa\"]}\n").unwrap();
    let out = entropy(&["analyse", bad.to_str().unwrap(), "--nodes", "500"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("move 5 (3Aa) is illegal"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn policy_data_writes_games_in_order_and_resumes_after_an_interruption() {
    let dir = scratch("policy-data");
    let prefix = |name: &str| dir.join(name).display().to_string();
    let run = |out: &str, games: &str, extra: &[&str]| {
        let mut args = vec![
            "policy-data",
            "--games",
            games,
            "--nodes",
            "300",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        args.push("--quiet");
        entropy(&args, "")
    };
    let read = |p: &str, suffix: &str| std::fs::read(format!("{p}.{suffix}")).unwrap();
    let whole = prefix("whole");
    assert!(run(&whole, "4", &["-j", "2"]).status.success());
    let log = String::from_utf8(read(&whole, "games")).unwrap();
    assert_eq!(
        log.lines().collect::<Vec<_>>(),
        [
            "# entropy policy-data --role chaos --nodes 300 --first-seed 0",
            "0 49",
            "1 49",
            "2 49",
            "3 49"
        ]
    );
    assert_eq!(read(&whole, "y").len(), 4 * 49);
    assert_eq!(read(&whole, "x").len(), 4 * 49 * 21 * 49 * 4);

    // Two games, then an interruption in the middle of the third: half its planes written
    // and its log line cut short. The rerun drops both and plays on to the same bytes.
    let parts = prefix("parts");
    assert!(run(&parts, "2", &["-j", "1"]).status.success());
    let example = 21 * 49 * 4;
    let mut x = std::fs::OpenOptions::new()
        .append(true)
        .open(format!("{parts}.x"))
        .unwrap();
    x.write_all(&vec![7; example * 3]).unwrap();
    let mut games = std::fs::OpenOptions::new()
        .append(true)
        .open(format!("{parts}.games"))
        .unwrap();
    games.write_all(b"2 4").unwrap();
    let out = run(&parts, "4", &["-j", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for suffix in ["x", "y", "games"] {
        assert!(
            read(&parts, suffix) == read(&whole, suffix),
            "{suffix} differs"
        );
    }
    let out = run(&parts, "4", &[]);
    assert!(text(&out.stdout).contains("nothing to do"));

    // Other settings on the same files, or files that do not belong together, are refused.
    let out = run(&parts, "5", &["--role", "order"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--role chaos"),
        "{}",
        text(&out.stderr)
    );
    std::fs::write(format!("{parts}.y"), b"").unwrap();
    let out = run(&parts, "5", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("do not belong together"),
        "{}",
        text(&out.stderr)
    );

    // Data files without their log are not overwritten.
    let orphan = prefix("orphan");
    std::fs::write(format!("{orphan}.x"), b"someone's data").unwrap();
    let out = run(&orphan, "1", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is missing"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(&orphan, "x"), b"someone's data");

    // A student plays Chaos (the teacher labels its decisions); its name is in the settings.
    let student = prefix("student");
    let out = run(&student, "1", &["--student", "greedy"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = String::from_utf8(read(&student, "games")).unwrap();
    assert!(log.starts_with(
        "# entropy policy-data --role chaos --nodes 300 --first-seed 0 --student greedy\n"
    ));
    assert_ne!(read(&student, "x"), read(&whole, "x")[..21 * 49 * 4 * 49]);
    let out = run(&prefix("nobody"), "1", &["--student", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--student: unknown bot"),
        "{}",
        text(&out.stderr)
    );

    // Greedy plays Order and the teacher assumes it: the same data whatever the threads.
    let against = |name: &str, jobs: &str| {
        let against = prefix(name);
        let flags = ["--opponent", "greedy", "--assume-greedy", "-j", jobs];
        let out = run(&against, "3", &flags);
        assert!(out.status.success(), "{}", text(&out.stderr));
        against
    };
    let (one, two) = (against("greedy1", "1"), against("greedy2", "2"));
    let log = String::from_utf8(read(&one, "games")).unwrap();
    assert!(log.starts_with(
        "# entropy policy-data --role chaos --nodes 300 --first-seed 0 --opponent greedy \
         --assume-greedy\n"
    ));
    for suffix in ["x", "y", "games"] {
        assert!(read(&one, suffix) == read(&two, suffix), "{suffix} differs");
    }
    assert_ne!(read(&one, "x"), read(&whole, "x")[..3 * 21 * 49 * 4 * 49]);

    // Spoiler labels and plays Chaos against greedy: no search at all; a bad bot is named.
    let spoiled = prefix("spoiler");
    let out = run(
        &spoiled,
        "2",
        &["--teacher", "spoiler", "--opponent", "greedy"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = String::from_utf8(read(&spoiled, "games")).unwrap();
    assert!(
        log.contains(" --teacher spoiler --opponent greedy\n"),
        "{log}"
    );
    assert_eq!(read(&spoiled, "y").len(), 2 * 49);
    let out = run(&prefix("nobody"), "1", &["--teacher", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--teacher"),
        "{}",
        text(&out.stderr)
    );
}

/// POSTs a JSON body to a server on this machine and returns the JSON answer.
fn post_json(port: u16, path: &str, body: &str) -> serde_json::Value {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (_, json) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

/// The first number after `label` in `text`.
fn number_after(text: &str, label: &str) -> f64 {
    let rest = &text[text
        .find(label)
        .unwrap_or_else(|| panic!("{label:?} in {text}"))
        + label.len()..];
    let number: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    number.parse().unwrap()
}

#[test]
fn every_reader_shows_the_same_calibrated_value() {
    // Order's first decision of `entropy play --seed 11` against greedy: P on Fd.
    let position = "......./......./......./......./......./...7.../....... slide";
    let nodes = "5000";
    let out = entropy(
        &[
            "play",
            "--role",
            "order",
            "--bot",
            "greedy",
            "--seed",
            "11",
            "--no-color",
            "--hint-nodes",
            nodes,
        ],
        "eval\nhint\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("greedy (chaos) plays P on Fd"), "{stdout}");
    let eval = number_after(&stdout, "Order's expected final score: ");
    let hint = number_after(&stdout, "; expected final score ");

    let mut server = Command::new(env!("CARGO_BIN_EXE_entropy"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let port: u16 = line
        .rsplit(':')
        .next()
        .and_then(|p| p.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("a port in {line:?}"));
    let api = |moves: usize, asked: &str| {
        let body =
            format!(r#"{{"position": "{position}", "moves": {moves}, "nodes": {nodes}{asked}}}"#);
        post_json(port, "/api/analyse", &body)
    };
    // `eval` asks for 3 moves, the Hint for 2 (a node budget shared by more moves can end at
    // another depth, so each reader is compared with the same question).
    let api_eval = api(3, "")["moves"][0]["expected"].as_f64().unwrap();
    let api_hint = api(2, "")["moves"][0]["expected"].as_f64().unwrap();
    let api_review = api(1, r#", "move": "pass""#);
    server.kill().unwrap();
    let _ = server.wait();
    assert!(
        (eval - api_eval).abs() < 0.051,
        "eval {eval}, API {api_eval}"
    );
    assert!(
        (hint - api_hint).abs() < 0.051,
        "hint {hint}, API {api_hint}"
    );

    // `entropy analyse` of the same moves values the decision as the web page's review and
    // evaluation graph ask (one move and the move played).
    let dir = scratch("calibrated");
    let game = dir.join("game.txt");
    std::fs::write(&game, "7Fd pass\n").unwrap();
    let out = entropy(
        &[
            "analyse",
            game.to_str().unwrap(),
            "--nodes",
            nodes,
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let order = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["role"] == "order")
        .unwrap();
    assert_eq!(order["best_value"], api_review["moves"][0]["expected"]);
    assert_eq!(order["played_value"], api_review["played"]["expected"]);

    // Calibrated: at turn 1 the search's own value is about 35, self-play games end near 79.
    assert!(api_eval > 70.0 && api_eval < 90.0, "{api_eval}");
    assert!(order["calibration"].as_f64().unwrap() > 30.0, "{order}");
}
