import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` is used: it reads the schema and writes SQL, touching no database.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/migrations',
});
