import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { useAuth } from '../auth/use-auth.js';
import { RemoteLoaderProvider } from '../remotes/remote-loader.context.js';
import { federationLoader } from './federation-loader.instance.js';
import { MainLayout } from './MainLayout.js';

/**
 * Entry of the main-screen chunk, loaded only after sign-in: Chakra, the
 * layout and the remote loading arrive with it, not with the sign-in page.
 */
export default function MainRoute() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <ChakraProvider value={defaultSystem}>
      <RemoteLoaderProvider loader={federationLoader()}>
        <MainLayout user={user} />
      </RemoteLoaderProvider>
    </ChakraProvider>
  );
}
