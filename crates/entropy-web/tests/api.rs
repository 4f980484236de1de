//! The HTTP API without a socket: the bot spec's endpoints, the game API, and bad inputs.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use entropy_web::{router, ServeConfig};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

fn config() -> ServeConfig {
    ServeConfig {
        bot: "greedy".to_owned(),
        ..ServeConfig::default()
    }
}

async fn call(
    method: &str,
    path: &str,
    body: Option<&str>,
    content_type: Option<&str>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(kind) = content_type {
        request = request.header("content-type", kind);
    }
    let request = request
        .body(Body::from(body.unwrap_or("").to_owned()))
        .unwrap();
    let response = router(config()).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    call(
        "POST",
        path,
        Some(&body.to_string()),
        Some("application/json"),
    )
    .await
}

fn state(cells: &[(usize, &str)], token: &str, turn: &str) -> Value {
    let mut state = vec![""; 49];
    for &(i, c) in cells {
        state[i] = c;
    }
    json!({"state": state, "nextToken": token, "turn": turn})
}

#[tokio::test]
async fn the_bot_spec_endpoints_answer_legal_moves() {
    let (status, body) = post("/api/chaos-next-turn", state(&[(17, "R")], "R", "chaos")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let cell = body["move"].as_str().unwrap();
    assert!(cell.len() == 2 && cell != "c4", "{body}");
    let (status, body) = post(
        "/api/order-next-turn",
        state(&[(17, "R"), (19, "R")], "G", "order"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Greedy Order joins the two reds on row c: c4-c5 or c6-c5 makes RR.
    assert!(
        ["c4-c5", "c6-c5"].contains(&body["move"].as_str().unwrap()),
        "{body}"
    );
}

#[tokio::test]
async fn bad_inputs_get_4xx_with_a_reason() {
    let sevens = state(
        &[
            (0, "R"),
            (1, "R"),
            (2, "R"),
            (3, "R"),
            (4, "R"),
            (5, "R"),
            (6, "R"),
        ],
        "R",
        "chaos",
    );
    let slide = "1....../......./......./......./......./......./....... slide";
    let cases = [
        (
            call(
                "POST",
                "/api/order-next-turn",
                Some("{\"state\":"),
                Some("application/json"),
            )
            .await,
            StatusCode::BAD_REQUEST,
        ),
        (
            call("POST", "/api/order-next-turn", Some("{}"), None).await,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            post(
                "/api/order-next-turn",
                json!({"state": 5, "nextToken": "R", "turn": "order"}),
            )
            .await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post(
                "/api/order-next-turn",
                json!({"state": [], "nextToken": "R", "turn": "order"}),
            )
            .await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post("/api/order-next-turn", state(&[], "R", "order")).await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post("/api/chaos-next-turn", state(&[(0, "X")], "R", "chaos")).await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post("/api/chaos-next-turn", state(&[], "R", "order")).await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post("/api/chaos-next-turn", sevens).await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post(
                "/api/chaos-next-turn",
                json!({"state": vec![""; 49], "nextToken": "R", "turn": "chaos", "extra": 1}),
            )
            .await,
            StatusCode::BAD_REQUEST,
        ),
        (
            call(
                "POST",
                "/api/play",
                Some(&"a".repeat(100_000)),
                Some("application/json"),
            )
            .await,
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            post("/api/play", json!({"position": "garbage", "move": "pass"})).await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post("/api/play", json!({"position": slide, "move": "AaBb"})).await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post("/api/bot", json!({"position": slide, "bot": "nobody"})).await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post(
                "/api/bot",
                json!({"position": slide, "bot": "search:tt=4096"}),
            )
            .await,
            StatusCode::BAD_REQUEST,
        ),
        (
            post(
                "/api/chaos-next-turn?bot=search:weights=/etc/passwd",
                state(&[], "R", "chaos"),
            )
            .await,
            StatusCode::BAD_REQUEST,
        ),
        (
            call("GET", "/nowhere", None, None).await,
            StatusCode::NOT_FOUND,
        ),
    ];
    for (i, ((status, body), expected)) in cases.into_iter().enumerate() {
        assert_eq!(status, expected, "case {i}: {body}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "case {i}: {body}"
        );
    }
    let (_, body) = post("/api/play", json!({"position": slide, "move": "AaBb"})).await;
    assert_eq!(
        body["error"],
        "illegal move AaBb: Aa to Bb is not along a row or a column"
    );
}

#[tokio::test]
async fn a_whole_game_through_the_game_api() {
    let (_, mut view) = post(
        "/api/position",
        json!({"position": format!("{} draw", ".".repeat(49))}),
    )
    .await;
    let mut seed = 0;
    while view["phase"] != "over" {
        let position = view["position"].clone();
        let (status, next) = match view["phase"].as_str().unwrap() {
            "draw" => {
                seed += 1;
                post("/api/draw", json!({"position": position, "seed": seed})).await
            }
            _ => {
                let (status, reply) =
                    post("/api/bot", json!({"position": position, "bot": "greedy"})).await;
                (status, reply["view"].clone())
            }
        };
        assert_eq!(status, StatusCode::OK, "{next}");
        view = next;
    }
    assert_eq!(view["placed"], 49);
    assert!(view["legal"].as_array().unwrap().is_empty());
    let rows: u64 = view["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    let columns: u64 = view["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(rows + columns, view["score"].as_u64().unwrap());
}

#[tokio::test]
async fn the_page_and_the_openapi_document_are_served() {
    let (status, page) = call("GET", "/", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.as_str().unwrap().contains("<title>Entropy</title>"));
    let (status, doc) = call("GET", "/api/openapi.json", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["openapi"], "3.0.3");
    for path in [
        "/api/order-next-turn",
        "/api/chaos-next-turn",
        "/api/play",
        "/api/bot",
    ] {
        assert!(doc["paths"][path]["post"].is_object(), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_beyond_the_slots_and_queue_get_503_and_the_server_recovers() {
    let app = router(ServeConfig {
        bot: "search".to_owned(),
        move_time: std::time::Duration::from_millis(300),
        max_searches: 1,
        queue: 1,
        ..ServeConfig::default()
    });
    let request = || {
        let body = state(&[(17, "R")], "G", "chaos").to_string();
        Request::builder()
            .method("POST")
            .uri("/api/chaos-next-turn")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .unwrap()
    };
    let calls: Vec<_> = (0..6)
        .map(|_| tokio::spawn(app.clone().oneshot(request())))
        .collect();
    let mut statuses = Vec::new();
    for call in calls {
        statuses.push(call.await.unwrap().unwrap().status());
    }
    let ok = statuses.iter().filter(|&&s| s == StatusCode::OK).count();
    let busy = statuses
        .iter()
        .filter(|&&s| s == StatusCode::SERVICE_UNAVAILABLE)
        .count();
    assert_eq!(ok + busy, 6, "{statuses:?}");
    assert!((1..=2).contains(&ok) && busy >= 4, "{statuses:?}");
    // Every place was given back: the next request is served.
    let response = app.oneshot(request()).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn analyse_values_the_best_moves_and_explains_the_first() {
    let mut body = state(&[(17, "R"), (19, "R")], "G", "order");
    body["moves"] = json!(3);
    body["nodes"] = json!(20_000);
    let (status, answer) = post("/api/analyse", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["turn"], "order");
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{answer}");
    let values: Vec<f64> = moves
        .iter()
        .map(|m| m["expected"].as_f64().unwrap())
        .collect();
    assert!(
        values.windows(2).all(|w| w[0] >= w[1]),
        "best first: {answer}"
    );
    assert_eq!(answer["line"][0], moves[0]["compact"], "{answer}");
    assert!(answer["explanation"]
        .as_str()
        .unwrap()
        .contains("expected final score"));

    // A position text works too; Chaos's best moves have the lowest values.
    let (status, answer) = post(
        "/api/analyse",
        json!({"position": "..7..../.3...../......2/....7../.....1./..52..4/....... 6", "moves": 2, "nodes": 5000}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["turn"], "chaos");
    let moves = answer["moves"].as_array().unwrap();
    assert!(
        moves[0]["expected"].as_f64() <= moves[1]["expected"].as_f64(),
        "{answer}"
    );
    assert!(answer["played"].is_null());

    // A move asked about is valued too, and is never better than the best for its player.
    let (status, answer) = post(
        "/api/analyse",
        json!({"position": "..7..../.3...../......2/....7../.....1./..52..4/....... 6", "moves": 1, "nodes": 5000, "move": "6Gg"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["played"]["compact"], "6Gg", "{answer}");
    assert!(answer["played"]["expected"].as_f64() >= answer["moves"][0]["expected"].as_f64());
    assert_eq!(answer["moves"].as_array().unwrap().len(), 1);

    // A chance node: each colour's value, weighted to the expected final score.
    let (status, answer) = post(
        "/api/analyse",
        json!({"position": "..7..../.3...../......2/....7../.....1./..52..4/....... draw", "nodes": 7000}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["turn"], "draw");
    let colours = answer["colours"].as_array().unwrap();
    assert_eq!(colours.len(), 7, "{answer}");
    let weighted: f64 = colours
        .iter()
        .map(|c| c["probability"].as_f64().unwrap() * c["expected"].as_f64().unwrap())
        .sum();
    assert!(
        (weighted - answer["expected"].as_f64().unwrap()).abs() < 0.1,
        "{answer}"
    );
}

#[tokio::test]
async fn analyse_rejects_bad_requests_with_a_reason() {
    let order = state(&[(17, "R")], "G", "order");
    let cases = [
        (json!({}), "either state"),
        (
            json!({"position": "1234567/1234567/1234567/1234567/1234567/1234567/1234567 draw"}),
            "the game is over",
        ),
        (
            json!({"position": "......./......./......./......./......./......./....... draw", "move": "3Aa"}),
            "no move to value",
        ),
        (
            {
                let mut b = order.clone();
                b["move"] = json!("AaAb");
                b
            },
            "illegal move AaAb",
        ),
        (
            {
                let mut b = order.clone();
                b["move"] = json!("zz");
                b
            },
            "zz",
        ),
        (
            {
                let mut b = order.clone();
                b["moves"] = json!(0);
                b
            },
            "moves is 0",
        ),
        (
            {
                let mut b = order.clone();
                b["moves"] = json!(21);
                b
            },
            "moves is 21",
        ),
        (
            {
                let mut b = order.clone();
                b["nodes"] = json!(0);
                b
            },
            "nodes must be",
        ),
        (
            {
                let mut b = order.clone();
                b["position"] = json!("x");
                b
            },
            "not both",
        ),
        (
            {
                let mut b = order.clone();
                b["turn"] = json!("nobody");
                b
            },
            "turn",
        ),
        (
            {
                let mut b = order.clone();
                b["extra"] = json!(1);
                b
            },
            "unknown field",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = post("/api/analyse", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(expected), "{body}: {error}");
    }
}
