//! The analysis commands driven as a user drives them: `entropy analyse`, `policy-data`, and
//! the expected final score every reader shows.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{assert_fails, data, entropy, scratch, text};

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
    // `entropy analyse FILE OPTIONS...`.
    let analyse = |file: &std::path::Path, options: &[&str]| {
        let mut args = vec!["analyse", file.to_str().unwrap()];
        args.extend_from_slice(options);
        entropy(&args, "")
    };
    let out = analyse(&records, &["--nodes", "2000", "--json"]);
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
    // Each side's thirds of the game add up to its points lost a game.
    for side in summary["sides"].as_array().unwrap() {
        let stages = &side["per_game_by_stage"];
        let sum: f64 = ["early", "middle", "late"]
            .iter()
            .map(|s| stages[s].as_f64().unwrap())
            .sum();
        assert!(
            (sum - side["per_game"].as_f64().unwrap()).abs() < 0.02,
            "{side}"
        );
    }
    assert!(lines
        .iter()
        .filter(|l| l["type"] == "decision")
        .all(|l| l["loss"].as_f64().unwrap() >= 0.0));
    // Node-limited: the same figures again.
    let again = analyse(&records, &["--nodes", "2000", "--json", "-j", "1"]);
    let strip = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.contains("\"summary\""))
            .map(String::from)
            .collect()
    };
    assert_eq!(strip(&text(&out.stdout)), strip(&text(&again.stdout)));

    let transcript = data("codecup/greedy-as-order.txt");
    let out = analyse(&transcript, &["--nodes", "1000", "--summary-only"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("summary: 1 game, 96 decisions"),
        "{}",
        text(&out.stdout)
    );

    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"moves\":[\"3Aa\",\"AaAa\",\"3Aa\"]}\n").unwrap();
    let out = analyse(&bad, &["--nodes", "500"]);
    assert_fails(&out, 1, "move 5 (3Aa) is illegal");
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
    assert_fails(&out, 2, "--role chaos");
    std::fs::write(format!("{parts}.y"), b"").unwrap();
    let out = run(&parts, "5", &[]);
    assert_fails(&out, 2, "do not belong together");

    // Data files without their log are not overwritten.
    let orphan = prefix("orphan");
    std::fs::write(format!("{orphan}.x"), b"someone's data").unwrap();
    let out = run(&orphan, "1", &[]);
    assert_fails(&out, 2, "is missing");
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
    assert_fails(&out, 2, "--student: unknown bot");

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
    assert_fails(&out, 2, "--teacher");
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

    // Calibrated: at turn 1 the search's own value (the tables') is about 60, self-play games
    // end near 80.
    assert!(api_eval > 70.0 && api_eval < 90.0, "{api_eval}");
    assert!(order["calibration"].as_f64().unwrap() > 15.0, "{order}");
}
