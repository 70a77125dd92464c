// Generated from openapi.yaml by `npm run generate`. Do not edit.
import type { OpenApiDocument } from './openapi-types.js';

export const document: OpenApiDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Pet Adoption API",
    "version": "1.0.0",
    "summary": "Browse, filter, add and fetch animals available for adoption.",
    "description": "An HTTP JSON interface for browsing and managing individual animals available for adoption.\n\nThis document is petkit's machine-checked reading of the service's own description. Where the\nsource leaves a point open (\"not shown\"), petkit decides, and marks the decision in place with\n`x-petkit-decision`, so a reader can tell the source's contract from petkit's.\n\nEvery operation requires a bearer API key. Every response carries the `X-RateLimit-Limit`,\n`X-RateLimit-Remaining` and `X-RateLimit-Reset` headers. Error responses carry an `Error` body\nwhose `status` repeats the HTTP status and whose `code` is one of: `missing_api_key`,\n`invalid_api_key`, `validation_failed`, `malformed_json`, `unsupported_media_type`,\n`payload_too_large`, `not_found`, `route_not_found`, `method_not_allowed`, `rate_limited`,\n`api_key_banned`, `store_full`, `internal_error`, `state_unavailable`, `request_header_too_large`,\n`request_timeout`, `expectation_failed`, `http_version_not_supported`, `host_not_allowed`,\n`origin_not_allowed`, `rule_not_found`, `too_many_rules`, `clock_refused`.\n`request_header_too_large` (431), `request_timeout` (408), `expectation_failed` (417) and\n`http_version_not_supported` (505, a request line of another version than HTTP/1.1 or HTTP/1.0),\nlike a 400 to a request that is not valid HTTP, come from the HTTP server before any operation is\nmatched: no operation lists them, and they carry no `X-RateLimit-*` headers. The petkit mock in\nprocess (`mock.request`, MSW) answers `request_header_too_large` for the same limits too.\n`host_not_allowed` and `origin_not_allowed` (403) refuse calls to the mock's control API only;\n`rule_not_found` (404), `too_many_rules` (409) and `clock_refused` (409) are the control API's\nown answers.\n\nThe paths under `/__petkit/` marked `x-petkit-control` are the petkit mock's control API (rules,\nits clock, its limits), not the Pet Adoption API: served at the mock's origin, with no key, and\nleft out of the contract suite and the proxy, which check the three operations above.\n\nRate limits by plan (requests per minute / per day): Free 60 / 1,000; Pro 300 / 10,000;\nBusiness 1,000 / 100,000; Enterprise custom. Repeated requests while limited lead to a temporary\nban of the key: clients back off exponentially and wait for `Retry-After`.\n",
    "contact": {
      "name": "petkit maintainers",
      "url": "https://github.com/petkit/petkit"
    },
    "license": {
      "name": "MIT",
      "identifier": "MIT"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:4010/v1",
      "description": "The local petkit mock (`npm start`)."
    },
    {
      "url": "https://{productionHost}/v1",
      "description": "Production. The source names it `{base_url}` and gives no host.",
      "variables": {
        "productionHost": {
          "default": "api.pet-adoption.invalid",
          "description": "Host of the production service (not given by the source)."
        }
      }
    },
    {
      "url": "https://{stagingHost}/v1",
      "description": "Staging. The source names it `{staging_base_url}` and gives no host.",
      "variables": {
        "stagingHost": {
          "default": "staging.api.pet-adoption.invalid",
          "description": "Host of the staging service (not given by the source)."
        }
      }
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "tags": [
    {
      "name": "pets",
      "description": "Animals available for adoption."
    },
    {
      "name": "control",
      "description": "The petkit mock's control API (rules, clock, limits, page), beside the API at the mock's origin."
    }
  ],
  "paths": {
    "/pets": {
      "get": {
        "operationId": "listPets",
        "tags": [
          "pets"
        ],
        "summary": "List animals",
        "description": "Returns at most `limit` animals in ascending `id` order, optionally filtered by `status`.\n",
        "x-petkit-decision": "The source shows no paging beyond `limit`; the list is in ascending `id` order. A query parameter the operation does not name is ignored, and names are case-sensitive (LIMIT is such a parameter).",
        "parameters": [
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/StatusFilter"
          }
        ],
        "responses": {
          "200": {
            "description": "A bare array of at most `limit` animals.",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pets"
                },
                "example": [
                  {
                    "id": 1,
                    "name": "Biscuit",
                    "categoryId": 3,
                    "status": "available"
                  },
                  {
                    "id": 2,
                    "name": "Mochi",
                    "categoryId": 1,
                    "status": "pending"
                  }
                ]
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          },
          "503": {
            "$ref": "#/components/responses/StateUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createPet",
        "tags": [
          "pets"
        ],
        "summary": "Add an animal",
        "description": "Adds an animal. The service assigns its `id`; no `id` is sent.",
        "requestBody": {
          "required": true,
          "description": "The animal to add. `name` and `categoryId` are required; unknown properties are rejected.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPet"
              },
              "example": {
                "name": "Biscuit",
                "categoryId": 3,
                "status": "available"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The created animal, with its assigned `id`.",
            "headers": {
              "Location": {
                "$ref": "#/components/headers/Location"
              },
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                },
                "example": {
                  "id": 51,
                  "name": "Biscuit",
                  "categoryId": 3,
                  "status": "available"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          },
          "503": {
            "$ref": "#/components/responses/StateUnavailable"
          },
          "507": {
            "$ref": "#/components/responses/StoreFull"
          }
        }
      }
    },
    "/pets/{petId}": {
      "get": {
        "operationId": "getPet",
        "tags": [
          "pets"
        ],
        "summary": "Get an animal (deprecated)",
        "description": "Returns one animal by its `id`.\n\nDeprecated: this operation is removed on 5 December 2030. The replacement is `GET /pets` with\nthe `status` filter. Every response of this operation carries `Sunset`, `Deprecation` and a\n`Link` to the successor.\n",
        "deprecated": true,
        "x-petkit-decision": "Every getPet response carries Sunset (RFC 8594), Deprecation (RFC 9745) and Link rel=successor-version, so clients can find the removal date whatever the status. Query parameters are ignored, as getPet names none.",
        "parameters": [
          {
            "$ref": "#/components/parameters/PetId"
          }
        ],
        "responses": {
          "200": {
            "description": "The animal.",
            "headers": {
              "Sunset": {
                "$ref": "#/components/headers/Sunset"
              },
              "Deprecation": {
                "$ref": "#/components/headers/Deprecation"
              },
              "Link": {
                "$ref": "#/components/headers/Link"
              },
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                },
                "example": {
                  "id": 1,
                  "name": "Biscuit",
                  "categoryId": 3,
                  "status": "available"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidPetId"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No animal has this `id`.",
            "headers": {
              "Sunset": {
                "$ref": "#/components/headers/Sunset"
              },
              "Deprecation": {
                "$ref": "#/components/headers/Deprecation"
              },
              "Link": {
                "$ref": "#/components/headers/Link"
              },
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "example": {
                  "code": "not_found",
                  "message": "No pet has id 4242.",
                  "status": 404
                }
              }
            }
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          },
          "503": {
            "$ref": "#/components/responses/StateUnavailable"
          }
        }
      }
    },
    "/__petkit/rules": {
      "x-petkit-control": true,
      "servers": [
        {
          "url": "http://127.0.0.1:4010",
          "description": "The petkit mock's origin (its control API is outside the API's base path)."
        }
      ],
      "get": {
        "operationId": "controlListRules",
        "tags": [
          "control"
        ],
        "summary": "List the armed rules",
        "description": "Every armed rule, newest first (the order they are tried in), with how often each matched and fired.",
        "security": [],
        "responses": {
          "200": {
            "description": "The rules.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rules"
                },
                "example": {
                  "rules": [
                    {
                      "id": "r1",
                      "enabled": true,
                      "operation": "listPets",
                      "key": "demo-free",
                      "times": 1,
                      "after": 0,
                      "respond": {
                        "status": 429
                      },
                      "matched": 0,
                      "fired": 0
                    }
                  ]
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      },
      "post": {
        "operationId": "controlArmRule",
        "tags": [
          "control"
        ],
        "summary": "Arm a rule",
        "description": "Arms a rule: the API requests it matches are answered as `respond` says (a documented error\nstatus, a delay, or a network fault) instead of as usual. Rules are tried newest first; a\ndisabled one is skipped.\n",
        "x-petkit-decision": "Where several rules match a request, the one armed last is tried first; one that matches but does not fire (times spent, after not reached, probability) lets older ones try.",
        "security": [],
        "requestBody": {
          "required": true,
          "description": "The rule.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RuleInput"
              },
              "example": {
                "operation": "listPets",
                "times": 1,
                "respond": {
                  "status": 429
                }
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The rule as armed, with its `id`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                },
                "example": {
                  "id": "r1",
                  "enabled": true,
                  "operation": "listPets",
                  "times": 1,
                  "after": 0,
                  "respond": {
                    "status": 429
                  },
                  "matched": 0,
                  "fired": 0
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ControlInvalid"
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "409": {
            "description": "`too_many_rules`: as many rules are armed as the mock keeps (100).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "example": {
                  "code": "too_many_rules",
                  "message": "100 rules are armed, the most the mock keeps; disarm one or all first (DELETE /__petkit/rules/ID or /__petkit/rules; in process, mock.rules.disarm(id) or mock.rules.disarm()).",
                  "status": 409
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/ControlUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      },
      "delete": {
        "operationId": "controlDisarmRules",
        "tags": [
          "control"
        ],
        "summary": "Disarm every rule",
        "description": "Disarms every rule. `POST /__petkit/reset` does too.",
        "security": [],
        "responses": {
          "204": {
            "description": "No rule is armed."
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      }
    },
    "/__petkit/rules/{ruleId}": {
      "x-petkit-control": true,
      "servers": [
        {
          "url": "http://127.0.0.1:4010",
          "description": "The petkit mock's origin (its control API is outside the API's base path)."
        }
      ],
      "parameters": [
        {
          "$ref": "#/components/parameters/RuleId"
        }
      ],
      "patch": {
        "operationId": "controlSwitchRule",
        "tags": [
          "control"
        ],
        "summary": "Turn a rule on or off",
        "description": "A disabled rule stays armed, keeps its counts, and is skipped until enabled again.",
        "security": [],
        "requestBody": {
          "required": true,
          "description": "Whether the rule is tried.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RuleSwitch"
              },
              "example": {
                "enabled": false
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The rule as it is now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                },
                "example": {
                  "id": "r1",
                  "enabled": false,
                  "operation": "listPets",
                  "times": 1,
                  "after": 0,
                  "respond": {
                    "status": 429
                  },
                  "matched": 3,
                  "fired": 1
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ControlInvalid"
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "404": {
            "$ref": "#/components/responses/RuleNotFound"
          },
          "415": {
            "$ref": "#/components/responses/ControlUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      },
      "delete": {
        "operationId": "controlDisarmRule",
        "tags": [
          "control"
        ],
        "summary": "Disarm a rule",
        "description": "Disarms one rule; the ids of the others do not change.",
        "security": [],
        "responses": {
          "204": {
            "description": "The rule is disarmed."
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "404": {
            "$ref": "#/components/responses/RuleNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      }
    },
    "/__petkit/clock": {
      "x-petkit-control": true,
      "x-petkit-decision": "The clock goes back no earlier than the start of the latest minute window in which a rate-limit bucket counted a request (else 409 clock_refused), so the in-memory and the shared limiter, and every replica, agree; POST /__petkit/reset empties the counts and returns to real time.",
      "servers": [
        {
          "url": "http://127.0.0.1:4010",
          "description": "The petkit mock's origin (its control API is outside the API's base path)."
        }
      ],
      "get": {
        "operationId": "controlReadClock",
        "tags": [
          "control"
        ],
        "summary": "Read the mock's clock",
        "description": "The mock's time, which rate limits, `X-RateLimit-Reset`, `Retry-After`, bans, `Date` and the journal follow.",
        "security": [],
        "responses": {
          "200": {
            "description": "The mock's time.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClockReading"
                },
                "example": {
                  "now": "2030-01-01T00:01:01.000Z",
                  "frozen": false,
                  "offsetSeconds": 61
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      },
      "post": {
        "operationId": "controlMoveClock",
        "tags": [
          "control"
        ],
        "summary": "Move, set or freeze the mock's clock",
        "description": "`advanceSeconds` moves the clock forward; `set` puts it at an instant (back no earlier than the\nstart of the latest minute window a rate limit counted a request in); `frozen` stops it at the\ninstant it reads, or lets it run on from there. With `--state`, every replica follows one clock.\n",
        "security": [],
        "requestBody": {
          "required": true,
          "description": "How to move the clock (`frozen` may come with either of the others).",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ClockChange"
              },
              "example": {
                "advanceSeconds": 61
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The mock's time after the change.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClockReading"
                },
                "example": {
                  "now": "2030-01-01T00:01:01.000Z",
                  "frozen": false,
                  "offsetSeconds": 61
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ControlInvalid"
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "409": {
            "description": "`clock_refused`: the clock would go back before a minute window in which requests were counted, or outside the years 1970 to 9999.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "example": {
                  "code": "clock_refused",
                  "message": "The clock cannot go back to 2030-01-01T00:00:00.000Z: requests were counted in the minute window from 2030-01-01T00:05:00.000Z, and a window never goes back. Set 2030-01-01T00:05:00.000Z or later, or POST /__petkit/reset (empties the counts and returns to real time).",
                  "status": 409
                }
              }
            }
          },
          "415": {
            "$ref": "#/components/responses/ControlUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      }
    },
    "/__petkit/limits": {
      "x-petkit-control": true,
      "servers": [
        {
          "url": "http://127.0.0.1:4010",
          "description": "The petkit mock's origin (its control API is outside the API's base path)."
        }
      ],
      "get": {
        "operationId": "controlReadLimits",
        "tags": [
          "control"
        ],
        "summary": "Read each key's rate-limit windows",
        "description": "Each key's minute and day windows and ban at the mock's time, as its next request would find them; reading counts nothing.",
        "security": [],
        "responses": {
          "200": {
            "description": "The windows, per key of the keys file (a private key masked to its first characters).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/KeyWindows"
                },
                "example": {
                  "now": "2030-01-01T00:00:30.000Z",
                  "keys": [
                    {
                      "key": "demo-free",
                      "plan": "free",
                      "minute": {
                        "limit": 60,
                        "remaining": 0,
                        "reset": 1893456060
                      },
                      "day": {
                        "limit": 1000,
                        "remaining": 940,
                        "reset": 1893542400
                      },
                      "bannedUntil": "2030-01-01T00:05:30.000Z"
                    }
                  ]
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      }
    },
    "/": {
      "x-petkit-control": true,
      "servers": [
        {
          "url": "http://127.0.0.1:4010/__petkit",
          "description": "The petkit mock's control API: the page is `/__petkit/`."
        }
      ],
      "get": {
        "operationId": "controlPage",
        "tags": [
          "control"
        ],
        "summary": "The mock's page",
        "description": "A self-contained page (nothing fetched from elsewhere) showing the journal live, each key's windows, the rules and the clock.",
        "security": [],
        "responses": {
          "200": {
            "description": "The page.",
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                },
                "example": "<!doctype html><title>petkit mock</title>"
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      }
    },
    "/__petkit/events": {
      "x-petkit-control": true,
      "servers": [
        {
          "url": "http://127.0.0.1:4010",
          "description": "The petkit mock's origin (its control API is outside the API's base path)."
        }
      ],
      "get": {
        "operationId": "controlEvents",
        "tags": [
          "control"
        ],
        "summary": "The journal live, as Server-Sent Events",
        "description": "One `request` event per answered API request, its data a journal entry (as `GET /__petkit/requests`\nanswers it) and its id the entry's; with `Last-Event-ID` (a reconnect) or `after` (a first\nconnection), the entries still in the journal after that id first.\n",
        "security": [],
        "parameters": [
          {
            "name": "after",
            "in": "query",
            "required": false,
            "description": "Replay the journal's entries after this id first (`Last-Event-ID` wins when both are sent).",
            "schema": {
              "type": "integer",
              "minimum": 0
            }
          },
          {
            "name": "Last-Event-ID",
            "in": "header",
            "required": false,
            "description": "The last event's id the client saw; an EventSource sends it when it reconnects.",
            "schema": {
              "type": "integer",
              "minimum": 0
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The event stream.",
            "content": {
              "text/event-stream": {
                "schema": {
                  "type": "string"
                },
                "example": "id: 1\nevent: request\ndata: {\"id\":1}\n\n"
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ControlInvalid"
          },
          "403": {
            "$ref": "#/components/responses/ControlForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ControlLimited"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "An API key sent as a bearer token: `Authorization: Bearer <API_KEY>`. The scheme name is\ncase-insensitive. A missing or invalid key gives `401` with an `Error` body.\n",
        "x-petkit-decision": "A 401 carries WWW-Authenticate (RFC 6750) and auth is checked before validation and lookup, so a 401 leaks nothing about the request. The scheme matches in any case and is followed by one or more spaces (RFC 9110 §11.4, 1*SP); the key is compared exactly and whole (RFC 6750 §2.1, b64token), so a tab, no space, a comma, a character added, removed or changed, or a change of case in the key is a 401. More than one credential (Authorization on two lines, which a Web Request joins with a comma, or two credentials in one value) is a 400 `validation_failed` whose WWW-Authenticate says error=\"invalid_request\" (RFC 6750 §3.1) and whose message says how many came; neither key is served, nor is a valid one refused as not valid."
      }
    },
    "parameters": {
      "Limit": {
        "name": "limit",
        "in": "query",
        "required": false,
        "description": "Maximum number of animals returned, from 1 to 100.",
        "x-petkit-decision": "A limit that is not an integer from 1 to 100 (0, 101, -1, 1.5, abc) is a 400, not silently clamped. Percent-decoded first (%32%30 is 20), it must then be written as a JSON integer, so +5, 05, 20.0, 2e1, a leading space or an empty value is a 400, not the default; given twice, even with equal values, it is a 400.",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "example": 20
      },
      "StatusFilter": {
        "name": "status",
        "in": "query",
        "required": false,
        "description": "Only animals with this availability status.",
        "x-petkit-decision": "A status outside PetStatus (such as adopted) is a 400, not an empty list. It is compared exactly after decoding, where a query's + is a space, so Available or available+ is a 400; given twice, even with equal values, it is a 400.",
        "schema": {
          "$ref": "#/components/schemas/PetStatus"
        },
        "example": "available"
      },
      "PetId": {
        "name": "petId",
        "in": "path",
        "required": true,
        "description": "The identifier of the animal.",
        "x-petkit-decision": "A petId that is not an int64 (abc, 1.5, 99999999999999999999) is a 400. Percent-decoded first (/pets/%31 is pet 1), it must then be written as a JSON integer, so +1, 01, 1.0 or 1e0 is a 400.",
        "schema": {
          "type": "integer",
          "format": "int64"
        },
        "example": 1
      },
      "RuleId": {
        "name": "ruleId",
        "in": "path",
        "required": true,
        "description": "A rule's id, as arming it answered (`r1`, `r2`…; a reset starts again at `r1`).",
        "schema": {
          "type": "string",
          "maxLength": 64
        },
        "example": "r1"
      }
    },
    "headers": {
      "X-RateLimit-Limit": {
        "description": "The limit in force, in requests per window, for the window with fewer requests remaining.",
        "required": true,
        "schema": {
          "type": "integer",
          "minimum": 0
        },
        "example": 60
      },
      "X-RateLimit-Remaining": {
        "description": "Requests remaining in that window. Never more than `X-RateLimit-Limit`.",
        "required": true,
        "schema": {
          "type": "integer",
          "minimum": 0
        },
        "example": 59
      },
      "X-RateLimit-Reset": {
        "description": "Unix time, in seconds, at which that window ends.",
        "required": true,
        "x-petkit-decision": "Of the minute and day windows, the headers describe the one with fewer requests remaining.",
        "schema": {
          "type": "integer",
          "minimum": 0
        },
        "example": 1795435260
      },
      "Retry-After": {
        "description": "Seconds to wait before retrying (RFC 9110 delay-seconds), at least 1.",
        "required": true,
        "x-petkit-decision": "The source does not give the unit or format of Retry-After; it is whole delay-seconds, at least 1.",
        "schema": {
          "type": "integer",
          "minimum": 1
        },
        "example": 42
      },
      "WWW-Authenticate": {
        "description": "The authentication challenge (RFC 6750).",
        "required": true,
        "schema": {
          "type": "string"
        },
        "example": "Bearer realm=\"pets\", error=\"invalid_token\""
      },
      "Location": {
        "description": "The path of the created animal.",
        "required": true,
        "x-petkit-decision": "A 201 points at the created animal.",
        "schema": {
          "type": "string"
        },
        "example": "/v1/pets/51"
      },
      "Sunset": {
        "description": "When the operation is removed (RFC 8594), an HTTP-date.",
        "required": true,
        "schema": {
          "type": "string",
          "const": "Thu, 05 Dec 2030 00:00:00 GMT"
        },
        "example": "Thu, 05 Dec 2030 00:00:00 GMT"
      },
      "Deprecation": {
        "description": "That the operation is deprecated, as an RFC 9745 date (`@` and Unix seconds).",
        "required": true,
        "x-petkit-decision": "The source gives no date for the deprecation itself; petkit uses 1 January 2025.",
        "schema": {
          "type": "string",
          "pattern": "^@-?[0-9]+$"
        },
        "example": "@1735689600"
      },
      "Link": {
        "description": "The successor of the deprecated operation.",
        "required": true,
        "schema": {
          "type": "string"
        },
        "example": "</v1/pets>; rel=\"successor-version\""
      }
    },
    "responses": {
      "InvalidQuery": {
        "description": "A query parameter is not valid (`limit` not an integer from 1 to 100, or an unknown `status`).",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "validation_failed",
              "message": "Invalid query: /limit must be <= 100.",
              "status": 400,
              "details": [
                {
                  "path": "/limit",
                  "message": "must be <= 100"
                }
              ]
            }
          }
        }
      },
      "InvalidPetId": {
        "description": "`petId` is not an int64.",
        "headers": {
          "Sunset": {
            "$ref": "#/components/headers/Sunset"
          },
          "Deprecation": {
            "$ref": "#/components/headers/Deprecation"
          },
          "Link": {
            "$ref": "#/components/headers/Link"
          },
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "validation_failed",
              "message": "Invalid path: /petId must be an int64 integer.",
              "status": 400,
              "details": [
                {
                  "path": "/petId",
                  "message": "must be an int64 integer"
                }
              ]
            }
          }
        }
      },
      "InvalidBody": {
        "description": "The body is missing required fields, holds invalid values or unknown properties\n(`validation_failed`), or is not JSON at all (`malformed_json`).\n",
        "x-petkit-decision": "Malformed JSON and an empty body are a 400 with code malformed_json; unknown properties (an id among them) are rejected.",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "validation_failed",
              "message": "Invalid body: /categoryId is required.",
              "status": 400,
              "details": [
                {
                  "path": "/categoryId",
                  "message": "is required"
                }
              ]
            }
          }
        }
      },
      "Unauthorized": {
        "description": "The API key is missing, not a `Bearer` token, or not a valid key.",
        "headers": {
          "WWW-Authenticate": {
            "$ref": "#/components/headers/WWW-Authenticate"
          },
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "x-petkit-decision": "Requests without a valid key are counted in an anonymous bucket per client address with Free limits, so 401s carry real rate-limit headers and key guessing is throttled; the bucket is never banned (a ban is a key's), so such a caller meets its 401 again when the window ends.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "invalid_api_key",
              "message": "The API key is not valid.",
              "status": 401
            }
          }
        }
      },
      "PayloadTooLarge": {
        "description": "The body is larger than 16 KiB.",
        "x-petkit-decision": "The source sets no body size limit; petkit's is 16 KiB.",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "payload_too_large",
              "message": "The body is larger than 16384 bytes.",
              "status": 413
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The body is not `application/json`.",
        "x-petkit-decision": "A body sent with another Content-Type is a 415, not parsed anyway. application/json matches in any case and with any parameters (RFC 9110 §8.3.1); a charset parameter is ignored and the body read as UTF-8 (RFC 8259 §8.1).",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "unsupported_media_type",
              "message": "The body must be application/json.",
              "status": 415
            }
          }
        }
      },
      "TooManyRequests": {
        "description": "The rate limit is exceeded (`rate_limited`), or the key is temporarily banned after too many\nrequests while limited (`api_key_banned`). Wait `Retry-After` seconds.\n",
        "x-petkit-decision": "More than 10 requests while limited within one window ban the key for 5 minutes (code api_key_banned, Retry-After until the ban ends).",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          },
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "rate_limited",
              "message": "Rate limit of 60 requests per minute exceeded. Retry in 42 s.",
              "status": 429
            }
          }
        }
      },
      "InternalError": {
        "description": "The server failed. The mock sends it only when forced with `Prefer: code=500`.",
        "x-petkit-decision": "Every operation documents a 500 with an Error body, so a client can be built for it.",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "internal_error",
              "message": "The server failed to answer the request.",
              "status": 500
            }
          }
        }
      },
      "StateUnavailable": {
        "description": "The mock keeps its state in a database shared by replicas (`petkit mock --state`) and has lost\nthat database; it answers again once the database is back. Retry after `Retry-After` seconds.\nThe rate limiter is in the lost database too: the request is not counted, and its\n`X-RateLimit-*` headers say the least a client may assume (the minute limit, none remaining,\nthe current minute's end).\n",
        "x-petkit-decision": "A replica that loses its shared state answers 503 state_unavailable rather than failing or answering from a state of its own.",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          },
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "state_unavailable",
              "message": "The mock's shared state (its database) is unavailable; retry shortly.",
              "status": 503
            }
          }
        }
      },
      "StoreFull": {
        "description": "The store holds as many animals as it can; nothing already stored is dropped.",
        "x-petkit-decision": "A bounded store answers 507 rather than growing without end or dropping data.",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "store_full",
              "message": "The store is full (100000 pets).",
              "status": 507
            }
          }
        }
      },
      "ControlForbidden": {
        "description": "On a socket, the control API answers only a `Host` naming the mock (`host_not_allowed`) and\npages of this machine or of a `--control-origin` (`origin_not_allowed`).\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "origin_not_allowed",
              "message": "The control API refuses calls from pages of another site.",
              "status": 403
            }
          }
        }
      },
      "ControlLimited": {
        "description": "The control API's own limit (1,200 requests a minute, all clients together) is spent.",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "rate_limited",
              "message": "The control API answers at most 1200 requests a minute; retry in 42 s.",
              "status": 429
            }
          }
        }
      },
      "ControlInvalid": {
        "description": "The body is not valid (`validation_failed`, each fault in `details`) or not JSON\n(`malformed_json`).\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "validation_failed",
              "message": "Invalid rule: /respond/status 418 is not a documented error status of listPets (documented: 400, 401, 429, 500, 503).",
              "status": 400,
              "details": [
                {
                  "path": "/respond/status",
                  "message": "418 is not a documented error status of listPets (documented: 400, 401, 429, 500, 503)"
                }
              ]
            }
          }
        }
      },
      "ControlUnsupportedMediaType": {
        "description": "The body is not `application/json`.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "unsupported_media_type",
              "message": "The body must be application/json.",
              "status": 415
            }
          }
        }
      },
      "RuleNotFound": {
        "description": "`rule_not_found`: no rule armed has this id.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "rule_not_found",
              "message": "No rule r9; armed: r1, r2.",
              "status": 404
            }
          }
        }
      }
    },
    "schemas": {
      "PetStatus": {
        "type": "string",
        "description": "Availability of an animal.",
        "enum": [
          "available",
          "pending",
          "sold"
        ],
        "example": "available"
      },
      "Pet": {
        "type": "object",
        "description": "An animal. `id` is assigned by the service on creation.",
        "required": [
          "id",
          "name",
          "categoryId"
        ],
        "properties": {
          "id": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "description": "Assigned by the service on creation.",
            "x-petkit-decision": "Ids are positive."
          },
          "name": {
            "$ref": "#/components/schemas/PetName"
          },
          "categoryId": {
            "$ref": "#/components/schemas/CategoryId"
          },
          "status": {
            "$ref": "#/components/schemas/PetStatus"
          }
        },
        "example": {
          "id": 1,
          "name": "Biscuit",
          "categoryId": 3,
          "status": "available"
        }
      },
      "NewPet": {
        "type": "object",
        "description": "The body that creates an animal. No `id` is sent.",
        "required": [
          "name",
          "categoryId"
        ],
        "additionalProperties": false,
        "x-petkit-decision": "Unknown properties, an id among them, are rejected with 400 rather than silently dropped. A member name given twice is read as its last value (RFC 8259 §4 leaves it open).",
        "properties": {
          "name": {
            "$ref": "#/components/schemas/PetName"
          },
          "categoryId": {
            "$ref": "#/components/schemas/CategoryId"
          },
          "status": {
            "$ref": "#/components/schemas/PetStatus"
          }
        },
        "example": {
          "name": "Biscuit",
          "categoryId": 3,
          "status": "available"
        }
      },
      "PetName": {
        "type": "string",
        "description": "The animal's name, stored exactly as sent (no trimming).",
        "minLength": 1,
        "maxLength": 100,
        "x-petkit-decision": "The source gives no length bounds; a name is 1 to 100 characters.",
        "example": "Biscuit"
      },
      "CategoryId": {
        "type": "integer",
        "format": "int64",
        "minimum": 1,
        "description": "Identifier of the category the animal belongs to.",
        "x-petkit-decision": "Category ids are positive int64 integers. As with every integer in a JSON body, a whole-valued JSON number is that integer however it is written (1.0, 1e0, 10E-1 are 1, as JSON Schema's integer type says), stored and echoed as 1.",
        "example": 3
      },
      "Pets": {
        "type": "array",
        "description": "A bare JSON array of animals.",
        "items": {
          "$ref": "#/components/schemas/Pet"
        },
        "example": [
          {
            "id": 1,
            "name": "Biscuit",
            "categoryId": 3,
            "status": "available"
          }
        ]
      },
      "Error": {
        "type": "object",
        "description": "The body of every error response. `status` repeats the HTTP status.",
        "required": [
          "code",
          "message",
          "status"
        ],
        "properties": {
          "code": {
            "type": "string",
            "minLength": 1,
            "description": "Machine-readable error code (the values are listed in the API description).",
            "x-petkit-decision": "The source does not list the codes; petkit's set is fixed and listed in the API description."
          },
          "message": {
            "type": "string",
            "description": "Human-readable description."
          },
          "status": {
            "type": "integer",
            "minimum": 100,
            "maximum": 599,
            "description": "The HTTP status code."
          },
          "details": {
            "type": "array",
            "maxItems": 20,
            "description": "What was wrong, one entry per fault, on validation errors: the first 20 faults at most\n(a body can hold thousands); when there were more, `message` says how many.\n",
            "x-petkit-decision": "Validation errors list their faults with JSON Pointer paths, at most 20 of them.",
            "items": {
              "$ref": "#/components/schemas/ErrorDetail"
            }
          }
        },
        "example": {
          "code": "not_found",
          "message": "No pet has id 4242.",
          "status": 404
        }
      },
      "ErrorDetail": {
        "type": "object",
        "description": "One fault in a request.",
        "required": [
          "path",
          "message"
        ],
        "properties": {
          "path": {
            "type": "string",
            "description": "JSON Pointer to the faulty value (in the body, or `/name` of the parameter)."
          },
          "message": {
            "type": "string",
            "description": "What is wrong with it."
          }
        },
        "example": {
          "path": "/categoryId",
          "message": "is required"
        }
      },
      "RuleInput": {
        "type": "object",
        "description": "A rule of the mock: which API requests it matches (every field optional; none given matches\nevery request routed to an operation) and how it answers them. `status` needs an operation\n(`operation`, or `method` and `path` that route to one) and must be one it documents.\n",
        "required": [
          "respond"
        ],
        "additionalProperties": false,
        "properties": {
          "operation": {
            "type": "string",
            "enum": [
              "listPets",
              "createPet",
              "getPet"
            ],
            "description": "Only requests routed to this operation."
          },
          "method": {
            "type": "string",
            "pattern": "^[A-Za-z]{1,16}$",
            "description": "Only requests with this method (any case)."
          },
          "path": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1024,
            "pattern": "^/",
            "description": "Only requests to this path (`/v1/pets/1`, the query left out), or with this prefix when it ends in `*` (`/v1/pets/*`)."
          },
          "key": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 512,
            "description": "Only requests with this key of the keys file; `null` only requests without a valid key. Absent, any."
          },
          "times": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000000000,
            "description": "Fire this many times at most, then let the requests through. Absent, no end."
          },
          "after": {
            "type": "integer",
            "minimum": 0,
            "maximum": 1000000000,
            "description": "Let this many matching requests through first. Default 0."
          },
          "probability": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "Fire for this share of the matching requests, drawn from `seed` (the same draws every run)."
          },
          "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 4294967295,
            "description": "Seed of the draws of `probability`. Default the mock's `--seed`, so replicas draw alike."
          },
          "respond": {
            "$ref": "#/components/schemas/RuleAnswer"
          }
        },
        "example": {
          "operation": "listPets",
          "key": "demo-free",
          "times": 2,
          "respond": {
            "status": 503
          }
        }
      },
      "RuleAnswer": {
        "type": "object",
        "description": "How a rule answers: a documented error `status` (answered as `Prefer: code=` is, in full), a\nnetwork `fault`, and `delayMs` before either (or alone, before the usual answer). Not a status\nand a fault together.\n",
        "minProperties": 1,
        "additionalProperties": false,
        "properties": {
          "status": {
            "type": "integer",
            "minimum": 400,
            "maximum": 599,
            "description": "A documented error status of the operation."
          },
          "delayMs": {
            "type": "integer",
            "minimum": 0,
            "maximum": 60000,
            "description": "Milliseconds to wait before answering."
          },
          "fault": {
            "$ref": "#/components/schemas/NetworkFault"
          }
        },
        "example": {
          "status": 429
        }
      },
      "NetworkFault": {
        "type": "string",
        "description": "What the connection does in place of an answer: `reset` (TCP reset), `close` (closed with\nnothing sent), `malformed` (bytes that are not HTTP), `truncated` (the head, then half the\nbody, then closed), `hang` (nothing, until the client gives up). In process (MSW,\n`mock.request`) each is a network error.\n",
        "enum": [
          "reset",
          "close",
          "malformed",
          "truncated",
          "hang"
        ],
        "example": "reset"
      },
      "Rule": {
        "type": "object",
        "description": "An armed rule, as `GET /__petkit/rules` lists it. `key` is shown as the journal shows keys (a key of your own file masked).",
        "required": [
          "id",
          "enabled",
          "after",
          "respond",
          "matched",
          "fired"
        ],
        "properties": {
          "id": {
            "type": "string",
            "description": "The rule's id (`r1`, `r2`…)."
          },
          "enabled": {
            "type": "boolean",
            "description": "Whether it is tried."
          },
          "operation": {
            "type": "string",
            "enum": [
              "listPets",
              "createPet",
              "getPet"
            ],
            "description": "The operation it matches (given, or the one `method` and `path` route to)."
          },
          "method": {
            "type": "string"
          },
          "path": {
            "type": "string"
          },
          "key": {
            "type": [
              "string",
              "null"
            ],
            "description": "The key it matches, as the journal names it; `null`, requests without a valid key."
          },
          "times": {
            "type": "integer",
            "minimum": 1
          },
          "after": {
            "type": "integer",
            "minimum": 0
          },
          "probability": {
            "type": "number",
            "minimum": 0,
            "maximum": 1
          },
          "seed": {
            "type": "integer",
            "minimum": 0,
            "description": "Seed of the draws (shown with `probability`)."
          },
          "respond": {
            "$ref": "#/components/schemas/RuleAnswer"
          },
          "matched": {
            "type": "integer",
            "minimum": 0,
            "description": "Requests it was tried on."
          },
          "fired": {
            "type": "integer",
            "minimum": 0,
            "description": "Requests it answered."
          }
        },
        "example": {
          "id": "r1",
          "enabled": true,
          "operation": "listPets",
          "after": 0,
          "respond": {
            "status": 429
          },
          "matched": 0,
          "fired": 0
        }
      },
      "Rules": {
        "type": "object",
        "description": "The armed rules, newest first (the order they are tried in).",
        "required": [
          "rules"
        ],
        "properties": {
          "rules": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/Rule"
            }
          }
        },
        "example": {
          "rules": []
        }
      },
      "RuleSwitch": {
        "type": "object",
        "description": "Turns a rule on or off.",
        "required": [
          "enabled"
        ],
        "additionalProperties": false,
        "properties": {
          "enabled": {
            "type": "boolean"
          }
        },
        "example": {
          "enabled": false
        }
      },
      "ClockChange": {
        "type": "object",
        "description": "One move of the mock's clock: `advanceSeconds` forward, or `set` to an instant (not both);\n`frozen`, alone or with either, stops the clock at the instant it then reads (`true`) or lets\nit run on from there (`false`).\n",
        "minProperties": 1,
        "additionalProperties": false,
        "properties": {
          "advanceSeconds": {
            "type": "integer",
            "minimum": 1,
            "maximum": 3153600000,
            "description": "Seconds to move forward (at most 100 years)."
          },
          "set": {
            "type": "string",
            "format": "date-time",
            "description": "The instant to put the clock at (ISO 8601 with a zone)."
          },
          "frozen": {
            "type": "boolean"
          }
        },
        "example": {
          "advanceSeconds": 61
        }
      },
      "ClockReading": {
        "type": "object",
        "description": "The mock's time.",
        "required": [
          "now",
          "frozen",
          "offsetSeconds"
        ],
        "properties": {
          "now": {
            "type": "string",
            "format": "date-time"
          },
          "frozen": {
            "type": "boolean"
          },
          "offsetSeconds": {
            "type": "integer",
            "description": "How far the mock's time is from real time, in whole seconds (0 when it follows real time)."
          }
        },
        "example": {
          "now": "2030-01-01T00:00:00.000Z",
          "frozen": false,
          "offsetSeconds": 0
        }
      },
      "KeyWindows": {
        "type": "object",
        "description": "Each key's rate-limit windows at the mock's time, as its next request would find them.",
        "required": [
          "now",
          "keys"
        ],
        "properties": {
          "now": {
            "type": "string",
            "format": "date-time"
          },
          "keys": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/KeyWindow"
            }
          }
        },
        "example": {
          "now": "2030-01-01T00:00:30.000Z",
          "keys": [
            {
              "key": "demo-free",
              "plan": "free",
              "minute": {
                "limit": 60,
                "remaining": 59,
                "reset": 1893456060
              },
              "day": {
                "limit": 1000,
                "remaining": 999,
                "reset": 1893542400
              },
              "bannedUntil": null
            }
          ]
        }
      },
      "KeyWindow": {
        "type": "object",
        "description": "One key's windows.",
        "required": [
          "key",
          "plan",
          "minute",
          "day",
          "bannedUntil"
        ],
        "properties": {
          "key": {
            "type": "string",
            "description": "The key as the journal names it (a key of your own file masked)."
          },
          "plan": {
            "type": "string",
            "enum": [
              "free",
              "pro",
              "business",
              "enterprise"
            ]
          },
          "minute": {
            "$ref": "#/components/schemas/Window"
          },
          "day": {
            "$ref": "#/components/schemas/Window"
          },
          "bannedUntil": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time",
            "description": "When the key's ban ends, or `null`."
          }
        },
        "example": {
          "key": "demo-free",
          "plan": "free",
          "minute": {
            "limit": 60,
            "remaining": 59,
            "reset": 1893456060
          },
          "day": {
            "limit": 1000,
            "remaining": 999,
            "reset": 1893542400
          },
          "bannedUntil": null
        }
      },
      "Window": {
        "type": "object",
        "description": "A rate-limit window.",
        "required": [
          "limit",
          "remaining",
          "reset"
        ],
        "properties": {
          "limit": {
            "type": "integer",
            "minimum": 0
          },
          "remaining": {
            "type": "integer",
            "minimum": 0
          },
          "reset": {
            "type": "integer",
            "minimum": 0,
            "description": "The window's end, Unix seconds."
          }
        },
        "example": {
          "limit": 60,
          "remaining": 59,
          "reset": 1893456060
        }
      }
    }
  }
};
