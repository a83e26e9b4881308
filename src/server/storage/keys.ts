// Storage keys, built here only, from ids the server trusts. Layout follows the spec's buckets.
export const storageKeys = {
  profilePhoto: (userId: string) => `profile-photos/${userId}/profile.jpg`,
};
