//! `entropy serve`: one HTTP server for people and programs.
//!
//! - The bot specification's API: `POST /api/order-next-turn`, `POST /api/chaos-next-turn`.
//! - A stateless game API for the web page (and anyone): `POST /api/position`, `/api/play`,
//!   `/api/draw`, `/api/bot`, `/api/analyse` (the best moves and the expected final score, as
//!   the Hint and the evaluation graph show it), and `GET /api/bots` (the built-in bots). A game
//!   is its position text, kept by the client, so concurrent games are independent and the
//!   server holds no sessions.
//! - `GET /api/openapi.json`: the OpenAPI 3 document of all of it.
//! - `GET /`: the web page (static files embedded in the binary).
//!
//! Searches run on blocking threads, at most `max_searches` at a time with at most
//! `queue` more waiting; beyond that a request gets 503 at once, so memory stays bounded.

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod api;
mod openapi;

use std::net::SocketAddr;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::Html;
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The bot that answers the bot-spec endpoints and `/api/bot` by default.
    pub bot: String,
    /// Time per move for the bot-spec endpoints (the spec allows 2 seconds), and the most a
    /// `/api/bot` request may ask for.
    pub move_time: Duration,
    /// Searches at once.
    pub max_searches: usize,
    /// Requests waiting for a search slot before the server answers 503.
    pub queue: usize,
    /// Largest request body, in bytes.
    pub body_limit: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            bot: "search".to_owned(),
            move_time: Duration::from_millis(1900),
            max_searches: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue: 64,
            body_limit: 64 * 1024,
        }
    }
}

/// Shared state of the handlers.
pub(crate) struct AppState {
    pub(crate) config: ServeConfig,
    pub(crate) searches: Semaphore,
    pub(crate) waiting: AtomicUsize,
}

const INDEX: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/app.js");
const STYLE: &str = include_str!("../static/style.css");

/// The routes, ready to serve or to test without a socket.
pub fn router(config: ServeConfig) -> Router {
    let body_limit = config.body_limit;
    let state = Arc::new(AppState {
        searches: Semaphore::new(config.max_searches.max(1)),
        waiting: AtomicUsize::new(0),
        config,
    });
    Router::new()
        .route("/", get(|| async { Html(INDEX) }))
        .route(
            "/app.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    SCRIPT,
                )
            }),
        )
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }),
        )
        .route(
            "/api/openapi.json",
            get(|| async { axum::Json(openapi::document()) }),
        )
        .route(
            "/api/health",
            get(|| async { axum::Json(serde_json::json!({"status": "ok"})) }),
        )
        .route("/api/order-next-turn", post(api::order_next_turn))
        .route("/api/chaos-next-turn", post(api::chaos_next_turn))
        .route("/api/position", post(api::position))
        .route("/api/play", post(api::play))
        .route("/api/draw", post(api::draw))
        .route("/api/bot", post(api::bot))
        .route("/api/analyse", post(api::analyse))
        .route("/api/bots", get(api::bots))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// Serves on `address` until Ctrl-C; `on_ready` gets the bound address (port 0 picks one).
pub async fn serve(
    config: ServeConfig,
    address: SocketAddr,
    on_ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(address).await?;
    on_ready(listener.local_addr()?);
    axum::serve(listener, router(config).into_make_service())
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
