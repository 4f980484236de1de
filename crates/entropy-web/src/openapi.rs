//! The OpenAPI 3 document served at `/api/openapi.json`.

use serde_json::{json, Value};

fn error_responses() -> Value {
    json!({
        "400": {"description": "Malformed JSON, wrong types, or a position or move that is not valid", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        "413": {"description": "Body too large", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        "415": {"description": "Not application/json", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        "503": {"description": "All search slots and the queue are taken", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    })
}

fn post(summary: &str, request: &str, response: &str, query: bool) -> Value {
    let mut responses = error_responses();
    responses["200"] = json!({"description": "OK", "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{response}")}}}});
    let mut operation = json!({
        "summary": summary,
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{request}")}}}},
        "responses": responses,
    });
    if query {
        operation["parameters"] = json!([
            {"name": "bot", "in": "query", "required": false, "schema": {"type": "string"}, "description": "A built-in bot by name, without options (GET /api/bots); the server's default otherwise"},
            {"name": "timeMs", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 0}, "description": "Thinking time, capped by the server's move time"}
        ]);
    }
    json!({"post": operation})
}

/// The document.
pub fn document() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": {"title": "entropy", "version": env!("CARGO_PKG_VERSION"), "description": "The bot specification's API for Entropy (Hyle 7), and a stateless game API: a game is its position text (board text and phase, e.g. `1....../......./......./......./......./......./....... slide`)."},
        "paths": {
            "/api/order-next-turn": post("Order's move for a game state (orderNextTurn)", "GameState", "MoveReply", true),
            "/api/chaos-next-turn": post("Chaos's placement for a game state (chaosNextTurn)", "GameState", "MoveReply", true),
            "/api/position": post("Describe a position: cells, phase, scores, bag, legal moves", "PositionRequest", "View", false),
            "/api/play": post("Play a move (compact notation) and describe the result", "PlayRequest", "View", false),
            "/api/draw": post("Draw a random chip from the bag", "DrawRequest", "View", false),
            "/api/bot": post("Let a bot move", "BotRequest", "BotReply", false),
            "/api/analyse": post("Analyse a position: the best moves with Order's expected final score after each, the likely line, and the best move explained", "AnalyseRequest", "Analysis", false),
            "/api/bots": {"get": {"summary": "The built-in bots", "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "description": {"type": "string"}}}}}}}}}},
            "/api/health": {"get": {"summary": "Liveness", "responses": {"200": {"description": "OK"}}}}
        },
        "components": {"schemas": {
            "Colour": {"type": "string", "enum": ["R", "G", "Y", "B", "W", "K", "P", ""]},
            "GameState": {"type": "object", "additionalProperties": false, "required": ["state", "nextToken", "turn"], "properties": {
                "state": {"type": "array", "minItems": 49, "maxItems": 49, "items": {"$ref": "#/components/schemas/Colour"}, "description": "49 cells row-major (a1..g7); \"\" is empty"},
                "nextToken": {"$ref": "#/components/schemas/Colour"},
                "turn": {"type": "string", "enum": ["order", "chaos"]}
            }},
            "MoveReply": {"type": "object", "required": ["move"], "properties": {"move": {"type": "string", "description": "Order: \"a1-b1\" or \"pass\"; Chaos: \"a1\""}}},
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
            "PositionRequest": {"type": "object", "additionalProperties": false, "required": ["position"], "properties": {"position": {"type": "string"}}},
            "PlayRequest": {"type": "object", "additionalProperties": false, "required": ["position", "move"], "properties": {"position": {"type": "string"}, "move": {"type": "string", "description": "3Bc, BcBg, pass or 3"}}},
            "DrawRequest": {"type": "object", "additionalProperties": false, "required": ["position"], "properties": {"position": {"type": "string"}, "seed": {"type": "integer", "minimum": 0}}},
            "BotRequest": {"type": "object", "additionalProperties": false, "required": ["position"], "properties": {"position": {"type": "string"}, "bot": {"type": "string"}, "timeMs": {"type": "integer", "minimum": 0}}},
            "BotReply": {"type": "object", "required": ["move", "view"], "properties": {"move": {"type": "string"}, "expected": {"type": "number", "nullable": true, "description": "The bot's estimate of Order's final score: calibrated on self-play games of the searching bot, or, while it reads its opponent as greedy, on games against greedy (see docs/search.md, Calibration)"}, "view": {"$ref": "#/components/schemas/View"}}},
            "AnalyseRequest": {"type": "object", "additionalProperties": false, "description": "Either state, nextToken and turn (as GameState) or position", "properties": {
                "state": {"type": "array", "minItems": 49, "maxItems": 49, "items": {"$ref": "#/components/schemas/Colour"}},
                "nextToken": {"$ref": "#/components/schemas/Colour"},
                "turn": {"type": "string", "enum": ["order", "chaos"]},
                "position": {"type": "string", "description": "A position text: a player to move, or a chip to draw (each colour is then valued)"},
                "moves": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many of the best moves to value (default 3)"},
                "timeMs": {"type": "integer", "minimum": 0, "description": "Thinking time, capped by the server's move time"},
                "nodes": {"type": "integer", "minimum": 1, "description": "Most positions to visit (reproducible when the time cap is not reached)"},
                "move": {"type": "string", "description": "A legal move (compact notation) to value as well: the move a player played, for a review"}
            }},
            "Analysis": {"type": "object", "required": ["turn"], "description": "For a decision: moves, line and explanation; for a chance node (a position text in the draw phase): expected and colours", "properties": {
                "turn": {"type": "string", "enum": ["order", "chaos", "draw"]},
                "expected": {"type": "number", "description": "At a chance node: Order's expected final score (calibrated as the moves' values)"},
                "colours": {"type": "array", "description": "At a chance node: each colour that can be drawn, likeliest first", "items": {"type": "object", "properties": {
                    "colour": {"type": "integer", "minimum": 1, "maximum": 7}, "probability": {"type": "number"}, "expected": {"type": "number"}}}},
                "moves": {"type": "array", "description": "Best first", "items": {"type": "object", "properties": {
                    "move": {"type": "string", "description": "As MoveReply writes it"}, "compact": {"type": "string", "description": "3Bc, BcBg or pass"},
                    "expected": {"type": "number", "description": "Order's expected final score after the move if both sides play on as the searching bot plays itself: the search's value corrected by the shipped calibration (docs/search.md, Calibration)"}}}},
                "played": {"type": "object", "nullable": true, "description": "The value of the requested move, as in moves"},
                "line": {"type": "array", "items": {"type": "string"}, "description": "The likely line in compact notation; a lone digit is the likeliest colour drawn"},
                "explanation": {"type": "string", "nullable": true},
                "depth": {"type": "integer"}, "nodes": {"type": "integer"}, "solved": {"type": "boolean"}, "timeMs": {"type": "integer"}
            }},
            "View": {"type": "object", "properties": {
                "position": {"type": "string"}, "size": {"type": "integer"},
                "cells": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 7}},
                "phase": {"type": "string", "enum": ["draw", "place", "slide", "over"]},
                "drawn": {"type": "integer", "nullable": true}, "score": {"type": "integer"},
                "rows": {"type": "array", "items": {"type": "integer"}}, "columns": {"type": "array", "items": {"type": "integer"}},
                "bag": {"type": "array", "items": {"type": "integer"}}, "legal": {"type": "array", "items": {"type": "string"}},
                "placed": {"type": "integer"}
            }}
        }}
    })
}
