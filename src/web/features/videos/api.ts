import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VideoDto } from '../../../server/videos/service';
import { api, unwrap } from '../../lib/api';
import { JUST_LOADED_MS } from '../../lib/freshness';
import { uploadForm } from '../../lib/upload';

export const videosQuery = queryOptions({ queryKey: ['videos'], queryFn: () => unwrap(api.videos.$get()), staleTime: JUST_LOADED_MS });
export const useVideos = () => useQuery(videosQuery);

export function useSaveThumbnail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ videoId, image }: { videoId: string; image: Blob }) => {
      const form = new FormData();
      form.append('thumbnail', image, 'thumbnail.jpg');
      return uploadForm<VideoDto>(`/api/videos/${videoId}/thumbnail`, 'PUT', form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: videosQuery.queryKey }),
  });
}
