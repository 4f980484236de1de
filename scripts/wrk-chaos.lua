-- wrk script: POST one bot-spec position to /api/chaos-next-turn.
--   entropy serve --bot greedy &   wrk -t2 -c64 -d10s -s scripts/wrk-chaos.lua http://127.0.0.1:8080/api/chaos-next-turn
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = "{\"state\": [\"R\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"G\", \"B\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\"], \"nextToken\": \"Y\", \"turn\": \"chaos\"}"
