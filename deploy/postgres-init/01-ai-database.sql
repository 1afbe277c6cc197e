-- The ai-middleware keeps its own database beside the api's (AI_DATABASE_URL).
CREATE DATABASE tessera_ai;
