//! The handlers. Every error is JSON, `{"error": "..."}`, with a 4xx status naming the problem
//! (503 when all search slots and the queue are taken).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use entropy_core::notation::text::{format_position, parse_position};
use entropy_core::{Colour, Move, Phase, Position, Role};
use entropy_engine::bots::random_move;
use entropy_engine::learned::BotEval;
use entropy_engine::search::analysis::Explanation;
use entropy_engine::search::{Limits, Searcher};
use entropy_engine::{make_bot, Budget, BOTS};
use entropy_protocol::api::{position_of, reply, GameState, MoveReply};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::AppState;

type Shared = State<Arc<AppState>>;

/// An error answer.
pub(crate) struct ApiError(StatusCode, String);

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({"error": self.1}))).into_response()
    }
}

/// JSON bodies whose rejections are JSON errors too (axum's are plain text).
pub(crate) struct ApiJson<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => {
                let status = match &rejection {
                    JsonRejection::MissingJsonContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                        StatusCode::PAYLOAD_TOO_LARGE
                    }
                    _ => StatusCode::BAD_REQUEST,
                };
                Err(ApiError(status, rejection.body_text()))
            }
        }
    }
}

pub(crate) async fn not_found() -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        "no such page; the API is described at /api/openapi.json".to_owned(),
    )
}

/// Optional choices for the bot that answers.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct BotQuery {
    bot: Option<String>,
    time_ms: Option<u64>,
}

/// Runs a bot on a blocking thread within the search limits.
async fn think(
    state: &AppState,
    position: Position,
    bot: Option<String>,
    time_ms: Option<u64>,
) -> Result<(Move, Option<f64>), ApiError> {
    let name = match bot {
        Some(name) => client_bot(name)?,
        None => state.config.bot.clone(),
    };
    let time = capped_time(state, time_ms);
    // The bot (a searcher's transposition table is megabytes) is made only once a search
    // slot is ours, so memory is bounded by the slots, not by the requests waiting.
    let result = in_search_slot(state, move || {
        let mut bot = make_bot(&name, rand_seed(&position))?;
        let mv = bot.choose(
            &position,
            Budget {
                game_left: time * 3,
                per_move: Some(time + entropy_engine::search::time::SAFETY),
            },
        );
        Ok::<_, entropy_engine::UnknownBot>((mv, bot.expected_score()))
    })
    .await?;
    result.map_err(|error| ApiError::bad(error.to_string()))
}

/// The thinking time a request asks for, capped by the server's move time, at least 10 ms.
fn capped_time(state: &AppState, time_ms: Option<u64>) -> Duration {
    let cap = state.config.move_time;
    time_ms
        .map_or(cap, |ms| Duration::from_millis(ms).min(cap))
        .max(Duration::from_millis(10))
}

/// Runs a search on a blocking thread once one of the server's search slots is free; 503 when
/// every slot and the queue are taken.
async fn in_search_slot<T: Send + 'static>(
    state: &AppState,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    // The guard gives the place back however the request ends, a client that hangs up
    // while queued included (its future is dropped at the `await`).
    let Some(_place) = Place::take(
        &state.waiting,
        state.config.queue + state.config.max_searches,
    ) else {
        return Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy: every search slot and the queue are taken; retry shortly".to_owned(),
        ));
    };
    let permit = state.searches.acquire().await;
    let result = tokio::task::spawn_blocking(job).await;
    drop(permit);
    result.map_err(|error| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the search failed: {error}"),
        )
    })
}

/// A bot a client asks for: a built-in name without options. Options are for the operator
/// (`entropy serve --bot`): over HTTP they would let a request read files (`weights=`),
/// allocate gigabytes (`tt=`) or search without a clock (`nodes=`, `depth=`); a client sets
/// the strength with `timeMs`.
fn client_bot(name: String) -> Result<String, ApiError> {
    if name.contains(':') {
        return Err(ApiError::bad(format!(
            "bot {name:?}: options are not accepted over HTTP; choose the strength with timeMs"
        )));
    }
    if !BOTS.iter().any(|b| b.name == name) {
        return Err(ApiError::bad(entropy_engine::UnknownBot(name).to_string()));
    }
    Ok(name)
}

/// A place among the requests searching or queued, given back when dropped.
struct Place<'a>(&'a AtomicUsize);

impl<'a> Place<'a> {
    /// Takes a place if fewer than `limit` are taken.
    fn take(taken: &'a AtomicUsize, limit: usize) -> Option<Place<'a>> {
        taken
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < limit).then_some(n + 1)
            })
            .ok()
            .map(|_| Place(taken))
    }
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn rand_seed(position: &Position) -> u64 {
    position.hash()
}

async fn next_turn(
    state: &AppState,
    game: GameState,
    role: Role,
    query: BotQuery,
) -> Result<Json<MoveReply>, ApiError> {
    let position = position_of(&game, role).map_err(|e| ApiError::bad(e.to_string()))?;
    let (mv, _) = think(state, position, query.bot, query.time_ms).await?;
    Ok(Json(reply(mv)))
}

pub(crate) async fn order_next_turn(
    State(state): Shared,
    Query(query): Query<BotQuery>,
    ApiJson(game): ApiJson<GameState>,
) -> Result<Json<MoveReply>, ApiError> {
    next_turn(&state, game, Role::Order, query).await
}

pub(crate) async fn chaos_next_turn(
    State(state): Shared,
    Query(query): Query<BotQuery>,
    ApiJson(game): ApiJson<GameState>,
) -> Result<Json<MoveReply>, ApiError> {
    next_turn(&state, game, Role::Chaos, query).await
}

/// A position as the web page shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct View {
    position: String,
    size: usize,
    /// Colour numbers row by row, 0 for empty.
    cells: Vec<u8>,
    /// `draw`, `place`, `slide` or `over`.
    phase: &'static str,
    /// The drawn colour while Chaos places.
    drawn: Option<u8>,
    score: u32,
    rows: Vec<u32>,
    columns: Vec<u32>,
    /// Chips left of each colour, colour 1 first.
    bag: Vec<u8>,
    /// Legal moves in the compact notation: `3Bc`, `BcBg`, `pass` (and `3` for draws).
    legal: Vec<String>,
    placed: usize,
}

fn view(position: &Position) -> View {
    let board = position.board();
    let size = position.size();
    let n = size.side();
    let (rows, columns) = board.line_scores();
    View {
        position: format_position(position),
        size: n,
        cells: size
            .board_cells()
            .map(|c| board.get(c).map_or(0, Colour::number))
            .collect(),
        phase: match position.phase() {
            Phase::Draw => "draw",
            Phase::Place(_) => "place",
            Phase::Slide => "slide",
            Phase::Over => "over",
        },
        drawn: match position.phase() {
            Phase::Place(colour) => Some(colour.number()),
            _ => None,
        },
        score: position.score(),
        rows: rows[..n].to_vec(),
        columns: columns[..n].to_vec(),
        bag: size
            .game_colours()
            .map(|c| position.bag().count(c))
            .collect(),
        legal: position.legal_moves().iter().map(Move::to_string).collect(),
        placed: position.placed(),
    }
}

fn parse(text: &str) -> Result<Position, ApiError> {
    parse_position(text).map_err(|e| ApiError::bad(e.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PositionRequest {
    position: String,
}

pub(crate) async fn position(
    ApiJson(request): ApiJson<PositionRequest>,
) -> Result<Json<View>, ApiError> {
    Ok(Json(view(&parse(&request.position)?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayRequest {
    position: String,
    /// Compact notation (`3Bc`, `BcBg`, `pass`, `3`); a placement at a chance node also draws
    /// its colour, as in game records.
    #[serde(rename = "move")]
    mv: String,
}

pub(crate) async fn play(ApiJson(request): ApiJson<PlayRequest>) -> Result<Json<View>, ApiError> {
    let mut position = parse(&request.position)?;
    let mv: Move = request
        .mv
        .parse()
        .map_err(|e: entropy_core::ParseError| ApiError::bad(e.to_string()))?;
    if let (Phase::Draw, Move::Place { colour, .. }) = (position.phase(), mv) {
        position
            .play(Move::Draw(colour))
            .map_err(|e| ApiError::bad(format!("illegal move {}: {e}", request.mv)))?;
    }
    position
        .play(mv)
        .map_err(|e| ApiError::bad(format!("illegal move {}: {e}", request.mv)))?;
    Ok(Json(view(&position)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DrawRequest {
    position: String,
    seed: Option<u64>,
}

pub(crate) async fn draw(ApiJson(request): ApiJson<DrawRequest>) -> Result<Json<View>, ApiError> {
    let mut position = parse(&request.position)?;
    if position.phase() != Phase::Draw {
        return Err(ApiError::bad(format!(
            "no chip is to be drawn now: {}",
            position.phase()
        )));
    }
    let seed = request.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mv = random_move(
        &position,
        &mut Xoshiro256PlusPlus::seed_from_u64(seed ^ position.hash()),
    );
    position.play_unchecked(mv);
    Ok(Json(view(&position)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct BotRequest {
    position: String,
    bot: Option<String>,
    time_ms: Option<u64>,
}

pub(crate) async fn bot(
    State(state): Shared,
    ApiJson(request): ApiJson<BotRequest>,
) -> Result<Response, ApiError> {
    let mut position = parse(&request.position)?;
    if position.to_move().is_none() {
        return Err(ApiError::bad(format!(
            "no player is to move: {}",
            position.phase()
        )));
    }
    let (mv, expected) = think(&state, position, request.bot, request.time_ms).await?;
    position.play(mv).map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the bot played {mv}: {e}"),
        )
    })?;
    Ok(
        Json(json!({"move": mv.to_string(), "expected": expected, "view": view(&position)}))
            .into_response(),
    )
}

pub(crate) async fn bots() -> Json<serde_json::Value> {
    Json(json!(BOTS
        .iter()
        .map(|b| json!({"name": b.name, "description": b.description}))
        .collect::<Vec<_>>()))
}

/// The most positions an analysis request may ask for (the server's move time caps it too).
const MAX_ANALYSIS_NODES: u64 = 10_000_000;

/// The most moves an analysis request may ask for.
const MAX_ANALYSIS_MOVES: usize = 20;

/// A position to analyse: the bot specification's game state (`state`, `nextToken`, `turn`)
/// or a position text (`position`), with the number of moves wanted and a budget.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct AnalyseRequest {
    state: Option<Vec<String>>,
    next_token: Option<String>,
    turn: Option<String>,
    position: Option<String>,
    moves: Option<usize>,
    time_ms: Option<u64>,
    nodes: Option<u64>,
    /// A move to value as well (compact notation), whether or not it is among the best.
    #[serde(rename = "move")]
    mv: Option<String>,
}

impl AnalyseRequest {
    fn position(&self) -> Result<Position, ApiError> {
        match (&self.position, &self.state, &self.next_token, &self.turn) {
            (Some(text), None, None, None) => {
                let position = parse(text)?;
                if position.is_over() {
                    return Err(ApiError::bad("the game is over: nothing to analyse"));
                }
                Ok(position)
            }
            (None, Some(state), Some(next_token), Some(turn)) => {
                let game = GameState {
                    state: state.clone(),
                    next_token: next_token.clone(),
                    turn: turn.clone(),
                };
                let role = if turn == "chaos" {
                    Role::Chaos
                } else {
                    Role::Order
                };
                position_of(&game, role).map_err(|e| ApiError::bad(e.to_string()))
            }
            _ => Err(ApiError::bad(
                "give either state, nextToken and turn (the bot specification's game state) \
                 or position (a position text), not both",
            )),
        }
    }
}

pub(crate) async fn analyse(
    State(state): Shared,
    ApiJson(request): ApiJson<AnalyseRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let position = request.position()?;
    let top = request.moves.unwrap_or(3);
    if !(1..=MAX_ANALYSIS_MOVES).contains(&top) {
        return Err(ApiError::bad(format!(
            "moves is {top}; ask for 1 to {MAX_ANALYSIS_MOVES}"
        )));
    }
    if request.nodes == Some(0) {
        return Err(ApiError::bad("nodes must be at least 1"));
    }
    let limits = Limits {
        nodes: request.nodes.map(|n| n.min(MAX_ANALYSIS_NODES)),
        time: Some(capped_time(&state, request.time_ms)),
        ..Limits::default()
    };
    if position.phase() == Phase::Draw {
        // A chance node: the value of each colour that can be drawn.
        if request.mv.is_some() {
            return Err(ApiError::bad(
                "a chip is to be drawn: there is no move to value",
            ));
        }
        let colours = in_search_slot(&state, move || {
            let mut searcher = Searcher::new(BotEval::shipped(), 16);
            searcher.analyse_chance(&position, limits)
        })
        .await?;
        let expected: f64 = colours.iter().map(|c| c.probability * c.value).sum();
        let colours: Vec<_> = colours
            .iter()
            .map(|c| {
                json!({"colour": c.colour.number(), "probability": (c.probability * 1e4).round() / 1e4,
                       "expected": (c.value * 100.0).round() / 100.0})
            })
            .collect();
        return Ok(Json(json!({
            "turn": "draw",
            "expected": (expected * 100.0).round() / 100.0,
            "colours": colours,
        })));
    }
    let asked = match &request.mv {
        None => None,
        Some(text) => {
            let mv: Move = text
                .parse()
                .map_err(|e: entropy_core::ParseError| ApiError::bad(e.to_string()))?;
            position
                .check(mv)
                .map_err(|e| ApiError::bad(format!("illegal move {text}: {e}")))?;
            Some(mv)
        }
    };
    let analysis = in_search_slot(&state, move || {
        let mut searcher = Searcher::new(BotEval::shipped(), 16);
        searcher.analyse(&position, limits, top, asked)
    })
    .await?;
    let value_json = |mv: Move, value: f64| {
        json!({"move": reply(mv).mv, "compact": mv.to_string(),
               "expected": (value * 100.0).round() / 100.0})
    };
    let played = analysis.asked.map(|m| value_json(m.mv, m.value));
    let best = analysis.best();
    let explanation = Explanation::of(&position, &analysis, best.mv).map(|e| e.text());
    let moves: Vec<_> = analysis
        .moves
        .iter()
        .map(|m| value_json(m.mv, m.value))
        .collect();
    let line: Vec<String> = analysis.line.iter().map(Move::to_string).collect();
    Ok(Json(json!({
        "turn": analysis.role.name(),
        "moves": moves,
        "played": played,
        "line": line,
        "explanation": explanation,
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "solved": analysis.solved,
        "timeMs": analysis.elapsed.as_millis() as u64,
    })))
}
