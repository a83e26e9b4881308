-- Every user has a profile row: it is created in the same transaction as the user, so code that
-- reads a profile may rely on it. The name better-auth stores is split into first and last name.
CREATE OR REPLACE FUNCTION create_user_profile() RETURNS trigger AS $$
BEGIN
  INSERT INTO user_profiles (id, email, first_name, last_name)
  VALUES (
    NEW.id,
    NEW.email,
    split_part(trim(NEW.name), ' ', 1),
    trim(substr(trim(NEW.name), length(split_part(trim(NEW.name), ' ', 1)) + 1))
  )
  ON CONFLICT (id) DO NOTHING;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER user_profile_on_signup AFTER INSERT ON "user"
  FOR EACH ROW EXECUTE FUNCTION create_user_profile();
--> statement-breakpoint
-- Keep the profile's e-mail in step with the account's.
CREATE OR REPLACE FUNCTION sync_user_profile_email() RETURNS trigger AS $$
BEGIN
  UPDATE user_profiles SET email = NEW.email WHERE id = NEW.id;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER user_profile_email_sync AFTER UPDATE OF email ON "user"
  FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION sync_user_profile_email();
--> statement-breakpoint
-- The two events offered on the dashboard.
INSERT INTO events (id, name, location, dates, starts_on) VALUES
  ('austin-fall-league-2024', 'Austin Fall League', 'Austin, TX', 'Oct 18-19', '2024-10-18'),
  ('chicago-3v3-2024', 'Chicago 3v3', 'Chicago, IL', 'Nov 9', '2024-11-09');
--> statement-breakpoint
INSERT INTO event_games (id, event_id, label, position) VALUES
  ('austin-sat-1', 'austin-fall-league-2024', 'Saturday Court 1: Austin Elite vs Round Rock Rebels', 1),
  ('austin-sat-2', 'austin-fall-league-2024', 'Saturday Court 1: Cedar Park Cougars vs Lakeway Lightning', 2),
  ('austin-sat-3', 'austin-fall-league-2024', 'Saturday Court 1: Pflugerville Panthers vs Georgetown Giants', 3),
  ('austin-sat-4', 'austin-fall-league-2024', 'Saturday Court 1: Austin Elite vs Cedar Park Cougars', 4),
  ('austin-sat-5', 'austin-fall-league-2024', 'Saturday Court 1: Round Rock Rebels vs Lakeway Lightning', 5),
  ('austin-sun-1', 'austin-fall-league-2024', 'Sunday Court 1: Georgetown Giants vs Austin Elite', 6),
  ('austin-sun-2', 'austin-fall-league-2024', 'Sunday Court 1: Lakeway Lightning vs Pflugerville Panthers', 7),
  ('austin-sun-3', 'austin-fall-league-2024', 'Sunday Court 1: Cedar Park Cougars vs Round Rock Rebels', 8),
  ('austin-sun-4', 'austin-fall-league-2024', 'Sunday Court 1: Semifinal', 9),
  ('austin-sun-5', 'austin-fall-league-2024', 'Sunday Court 1: Championship', 10);
